/* fuzz_ascii.c - libFuzzer target: the ASCII hex loader on arbitrary input (forced
 * format), with the result checks of fuzz_check.h. */
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_load_and_check(data, size, TRX_FORMAT_ASCII);
    return 0;
}
