/* commands.h - the entry point of each `trx` command (cmd_NAME.c); trx_main.c lists them. */
#ifndef TRX_COMMANDS_H
#define TRX_COMMANDS_H

/* Each takes argv with argv[0] = the command name and returns the exit status. */
int cmd_info(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_events(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_latency(int argc, char **argv);
int cmd_why(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_describe(int argc, char **argv);
int cmd_capture(int argc, char **argv);
int cmd_serve(int argc, char **argv);

#endif
