/* host_info.c - a host program built against an installed trx only: opens a
 * trace with the library and prints its capacity and used entries. */
#include <stdio.h>

#include "trx/trx.h"

int main(int argc, char **argv)
{
    trx_trace t = {0};
    trx_error err = {0};
    if (argc != 2 || trx_trace_open(&t, argv[1], TRX_FORMAT_AUTO, &err) != 0) {
        fprintf(stderr, "host_info: %s\n", argc == 2 ? err.message : "usage: host_info TRACE");
        return 2;
    }
    printf("capacity %u used %u\n", (unsigned)t.capacity, (unsigned)t.used);
    trx_trace_close(&t);
    return 0;
}
