/* inline_hints.h - the compiler hints of the per-event paths: a rare path
 * kept out of the hot one (TRX_NOINLINE, TRX_COLD), a small step folded
 * into its caller (TRX_ALWAYS_INLINE), the usual outcome of a test
 * (TRX_LIKELY); nothing on compilers without them. */
#ifndef TRX_INLINE_HINTS_H
#define TRX_INLINE_HINTS_H

#if defined(__GNUC__)
#define TRX_NOINLINE __attribute__((noinline))
#define TRX_ALWAYS_INLINE inline __attribute__((always_inline))
#define TRX_COLD __attribute__((cold, noinline))
#define TRX_LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define TRX_NOINLINE
#define TRX_ALWAYS_INLINE inline
#define TRX_COLD
#define TRX_LIKELY(x) (x)
#endif

#endif
