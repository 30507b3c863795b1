# count_insert.py - GDB command `count-to-return`: single-steps (stepi) from
# a function's entry until it returns to its caller and prints the number of
# instructions executed ("insert-instructions N"). The QEMU examples use it on
# insert_probe (one inline TRX_TRACE_EVENT) to measure the cost of an insert.
import gdb


class CountToReturn(gdb.Command):
    """Counts instructions (stepi) from here until the return to the caller."""

    def __init__(self):
        super().__init__("count-to-return", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        arch = gdb.selected_frame().architecture().name()
        if "arm" in arch:
            ret = int(gdb.parse_and_eval("$lr")) & ~1
        else:
            ret = int(gdb.parse_and_eval("$ra"))
        n = 0
        while int(gdb.parse_and_eval("$pc")) != ret and n < 100000:
            gdb.execute("stepi", to_string=True)
            n += 1
        gdb.write("insert-instructions %d\n" % n)


CountToReturn()
