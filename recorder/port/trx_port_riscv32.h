/*
 * trx_port_riscv32.h - recorder port for RV32 cores running in machine mode.
 * No vendor header needed. Use it with
 *   -I <trx>/recorder/port -DTRX_RECORDER_PORT_HEADER="trx_port_riscv32.h"
 * for the recorder sources and every file that includes trx/recorder.h.
 *
 * Critical section: mstatus.MIE (cleared with csrrci, set again only if it
 * was set: nests). Time source: the low 32 bits of mcycle (wraps at 2^32).
 * Zicsr: GCC 12 and later want "_zicsr" in -march for CSR instructions
 * (-march=rv32imac_zicsr); without it this header emits the same
 * instructions through .insn, so both spellings of -march build.
 * Lock-free mode needs the A extension (-march=rv32imac...).
 */
#ifndef TRX_PORT_RISCV32_H
#define TRX_PORT_RISCV32_H

#include <stdint.h>

#if !defined(__riscv) || __riscv_xlen != 32
#error "trx_port_riscv32.h: not an RV32 target (build with -march=rv32...)"
#endif
#if defined(TRX_RECORDER_LOCKFREE) && TRX_RECORDER_LOCKFREE && !defined(__riscv_atomic)
#error "trx_port_riscv32.h: lock-free mode needs the A extension (-march=rv32imac_zicsr)"
#endif

#define TRX_PORT_MSTATUS_MIE 0x8UL

/* Clears mstatus.MIE and returns the previous mstatus. */
static inline uint32_t trx_port_irq_save(void)
{
    uint32_t mstatus;
#if defined(__riscv_zicsr)
    __asm__ volatile("csrrci %0, mstatus, 8" : "=r"(mstatus) : : "memory");
#else /* csrrci rd, mstatus(0x300), 8: opcode SYSTEM, funct3 7, uimm 8 in rs1 */
    __asm__ volatile(".insn i 0x73, 7, %0, x8, 0x300" : "=r"(mstatus) : : "memory");
#endif
    return mstatus;
}

/* Sets mstatus.MIE again if it was set when trx_port_irq_save ran. */
static inline void trx_port_irq_restore(uint32_t mstatus)
{
    uint32_t mie = mstatus & TRX_PORT_MSTATUS_MIE;
#if defined(__riscv_zicsr)
    __asm__ volatile("csrs mstatus, %0" : : "r"(mie) : "memory");
#else /* csrrs x0, mstatus, rs1: funct3 2 */
    __asm__ volatile(".insn i 0x73, 2, x0, %0, 0x300" : : "r"(mie) : "memory");
#endif
}

/* The low 32 bits of the machine cycle counter. */
static inline uint32_t trx_port_mcycle(void)
{
    uint32_t cycles;
#if defined(__riscv_zicsr)
    __asm__ volatile("csrr %0, mcycle" : "=r"(cycles));
#else /* csrrs rd, mcycle(0xB00 = -1280 as a signed 12-bit field), x0 */
    __asm__ volatile(".insn i 0x73, 2, %0, x0, -1280" : "=r"(cycles));
#endif
    return cycles;
}

/* The current stack pointer. */
static inline uint32_t trx_port_stack_pointer(void)
{
    uint32_t sp;
    __asm__ volatile("mv %0, sp" : "=r"(sp));
    return sp;
}

#define TRX_INTERRUPT_SAVE_AREA uint32_t trx_mstatus_;
/* Stores before it reach memory before stores after it (a stream ring's data
 * before its write offset; a probe reads both over the debug port). */
#define TRX_PORT_MEMORY_BARRIER() __asm volatile("fence" ::: "memory")
#define TRX_DISABLE trx_mstatus_ = trx_port_irq_save();
#define TRX_RESTORE trx_port_irq_restore(trx_mstatus_);
#define TRX_PORT_STACK_POINTER() trx_port_stack_pointer()
#define TX_TRACE_TIME_SOURCE trx_port_mcycle()
#define TX_TRACE_TIME_MASK 0xFFFFFFFFUL

#endif /* TRX_PORT_RISCV32_H */
