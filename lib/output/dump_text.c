/*
 * dump_text.c - TraceX's "raw trace dump": a trx banner, then, from the
 * "Trace File Header Information" line to the end, the same text TraceX
 * prints, byte for byte (research/tracex.md section 3).
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "output/dump_text.h"
#include "trx/catalog.h"
#include "trx/stats.h"

static void stars(trx_out *o, int n)
{
    static const char s[] = "********************************************************************"
                            "****************************************************************";
    while (n > 0) {
        int k = n < (int)sizeof s - 1 ? n : (int)sizeof s - 1;
        trx_out_mem(o, s, (size_t)k);
        n -= k;
    }
}

/* A section banner: stars, the title, stars. */
static void banner(trx_out *o, int left, const char *title, int right)
{
    stars(o, left);
    trx_out_str(o, title);
    stars(o, right);
    trx_out_char(o, '\n');
}

static void spaces(trx_out *o, int n)
{
    while (n-- > 0)
        trx_out_char(o, ' ');
}

/* %8lu and friends: right-aligned decimal in `width` columns. */
static void dec(trx_out *o, uint64_t v, int width)
{
    trx_out_u64_pad(o, v, width, ' ');
}

/* TraceX's 20-digit zero-padded tick count. */
static void ticks20(trx_out *o, uint64_t v)
{
    trx_out_u64_pad(o, v, 20, '0');
}

/* %ld of a 32-bit value (TraceX's long is 32 bits). */
static void sdec(trx_out *o, uint32_t v, int width)
{
    int32_t s = (int32_t)v;
    char buf[16];
    snprintf(buf, sizeof buf, "%*ld", width, (long)s);
    trx_out_str(o, buf);
}

/* %02lX of a byte. */
static void hex2(trx_out *o, uint8_t v)
{
    static const char digits[] = "0123456789ABCDEF";
    trx_out_char(o, digits[v >> 4]);
    trx_out_char(o, digits[v & 15]);
}

/* "Priority: L/H" style range or "?/?". */
static void range(trx_out *o, uint32_t lowest, uint32_t highest)
{
    if (lowest == TRX_UNKNOWN) {
        trx_out_str(o, "?/?");
        return;
    }
    dec(o, lowest, 0);
    trx_out_char(o, '/');
    dec(o, highest, 0);
}

static const char *object_name(const trx_trace *t, uint32_t object_index)
{
    return t->objects[object_index].name;
}

static void write_title(trx_out *o, const char *input_name, const char *output_name)
{
    stars(o, 55);
    trx_out_str(o, " trx " TRX_VERSION_STRING " raw trace dump (TraceX format) ");
    stars(o, 63);
    trx_out_str(o, "\n\nInput Trace File:     ");
    trx_out_str(o, input_name);
    trx_out_str(o, "\nOutput Trace File:    ");
    trx_out_str(o, output_name);
    trx_out_str(o, "\n\n\n");
}

static void header_line(trx_out *o, const char *label, uint32_t v)
{
    trx_out_str(o, label);
    trx_out_hex32(o, v);
    trx_out_char(o, '\n');
}

static void write_header(trx_out *o, const trx_trace *t)
{
    const trx_header *h = &t->header;
    banner(o, 14, " Trace File Header Information ", 16);
    trx_out_str(o, "\nTotal Threads:       ");
    dec(o, t->thread_count, 0);
    trx_out_str(o, "\nTotal Events:        ");
    dec(o, t->total_events, 0);
    trx_out_str(o, "\nMax Relative Ticks:  ");
    ticks20(o, t->max_ticks);
    trx_out_char(o, '\n');
    header_line(o, "Trace ID:            ", h->id_as_read);
    header_line(o, "Timer Mask:          ", h->timer_mask);
    trx_out_str(o, "Object Name Size:    ");
    dec(o, h->name_size, 0);
    trx_out_char(o, '\n');
    header_line(o, "Trace Base Address:  ", h->base_address);
    header_line(o, "Object Start:        ", h->registry_start);
    header_line(o, "Object End:          ", h->registry_end);
    header_line(o, "Buffer Start:        ", h->buffer_start);
    header_line(o, "Buffer End:          ", h->buffer_end);
    header_line(o, "Buffer Oldest:       ", h->buffer_current);
    trx_out_str(o, "\n\n");
}

static void write_threads(trx_out *o, const trx_trace *t, const trx_stats *s)
{
    banner(o, 42, " Threads in this Trace ", 41);
    trx_out_str(o, "   Address        Stack         Total Events               Name\n\n");
    for (uint32_t i = 0; i < t->thread_count; i++) {
        const trx_thread *th = &t->threads[i];
        trx_out_str(o, "  ");
        trx_out_hex32(o, th->address);
        trx_out_str(o, "  ");
        trx_out_hex32(o, th->stack_start);
        trx_out_char(o, '-');
        trx_out_hex32(o, th->stack_start + th->stack_size);
        trx_out_str(o, "  ");
        dec(o, s->threads[i].total_events, 8);
        trx_out_str(o, "  ");
        trx_out_str(o, object_name(t, th->object_index));
        trx_out_str(o, " (Priority: ");
        range(o, th->prio_lowest, th->prio_highest);
        trx_out_str(o, ")  (Preemption-Threshold: ");
        range(o, th->pt_lowest, th->pt_highest);
        trx_out_str(o, ") \n");
    }
    trx_out_str(o, "\n\n");
}

static const char *type_label(uint8_t type)
{
    static const char *const labels[] = {NULL,          "THREAD     ", "TIMER      ", "QUEUE      ",
                                         "SEMAPHORE  ", "MUTEX      ", "EVENT FLAGS", "BLOCK POOL ",
                                         "BYTE POOL  ", "FX MEDIA   ", "FX FILE    ", "NX IP      ",
                                         "NX PK POOL ", "NX TCP SOC ", "NX UDP SOC "};
    return type < sizeof labels / sizeof labels[0] ? labels[type] : NULL;
}

/* The parameter columns of one object row. */
static void object_params(trx_out *o, const trx_object *ob)
{
    const char *p1 = NULL, *p2 = NULL;
    bool hex1 = false;
    switch (ob->type) {
    case TRX_OBJ_THREAD:
        p1 = "Stack Start:   ", hex1 = true, p2 = "Stack Size:       ";
        break;
    case TRX_OBJ_TIMER:
        p1 = "Initial Ticks: ", p2 = "Reschedule Ticks: ";
        break;
    case TRX_OBJ_QUEUE:
        p1 = "Queue Size:    ", p2 = "Message Size:     ";
        break;
    case TRX_OBJ_SEMAPHORE:
        p1 = "Initial Count: ";
        break;
    case TRX_OBJ_MUTEX:
        trx_out_str(o,
                    ob->param1 ? "       Priority Inheritance Enabled" : "       No Inheritance");
        return;
    case TRX_OBJ_BLOCK_POOL:
        p1 = "Total Blocks:  ", p2 = "Block Size:       ";
        break;
    case TRX_OBJ_BYTE_POOL:
        p1 = "Total Size:    ";
        break;
    case TRX_OBJ_IP:
        p1 = "Stack Address: ", hex1 = true, p2 = "Stack Size:       ";
        break;
    case TRX_OBJ_PACKET_POOL:
        p1 = "Packet Size:   ", p2 = "Number of Packets:";
        break;
    case TRX_OBJ_TCP_SOCKET:
        p1 = "Type of Serv:  ", hex1 = true, p2 = "Window Size:      ";
        break;
    case TRX_OBJ_UDP_SOCKET:
        p1 = "Type of Serv:  ", hex1 = true, p2 = "Receive Queue Max:";
        break;
    default:
        return;
    }
    trx_out_str(o, "       ");
    trx_out_str(o, p1);
    if (hex1)
        trx_out_hex32(o, ob->param1);
    else
        sdec(o, ob->param1, 8);
    if (p2) {
        trx_out_str(o, "               ");
        trx_out_str(o, p2);
        sdec(o, ob->param2, 0);
    }
}

static void write_objects(trx_out *o, const trx_trace *t)
{
    banner(o, 64, " Objects in Trace ", 65);
    trx_out_str(o, "   Address       Type                  Name                    Reserved1  "
                   "Reserved2        Parameter 1                          Parameter 2\n\n");
    for (uint32_t i = 0; i < t->object_count; i++) {
        const trx_object *ob = &t->objects[i];
        const char *label = type_label(ob->type);
        size_t len = strlen(ob->name);
        trx_out_str(o, "  ");
        trx_out_hex32(o, ob->address);
        trx_out_str(o, "   ");
        trx_out_str(o, label ? label : "UNKNOWN");
        trx_out_str(o, "  ");
        spaces(o, len < 32 ? (int)(32 - len) : 0);
        trx_out_str(o, ob->name);
        trx_out_str(o, "         ");
        hex2(o, ob->reserved1);
        trx_out_str(o, "         ");
        hex2(o, ob->reserved2);
        object_params(o, ob);
        trx_out_char(o, '\n');
    }
    trx_out_str(o, "\n\n");
}

static void stat_line(trx_out *o, const char *label, uint64_t v)
{
    trx_out_str(o, label);
    dec(o, v, 0);
    trx_out_char(o, '\n');
}

static void write_performance(trx_out *o, const trx_stats *s)
{
    banner(o, 14, " Performance Statistics ", 23);
    trx_out_char(o, '\n');
    stat_line(o, "Context Switches:    ", s->context_switches);
    stat_line(o, "Thread Preemptions:  ", s->preemptions);
    stat_line(o, "Time Slices:         ", s->time_slices);
    stat_line(o, "Thread Suspensions:  ", s->suspensions);
    stat_line(o, "Thread Resumptions:  ", s->resumptions);
    stat_line(o, "Interrupts:          ", s->interrupts);
    stat_line(o, "Nested Interrupts:   ", s->nested_interrupts);
    trx_out_str(o, "Priority Inversions: ");
    dec(o, s->inversions, 0);
    trx_out_char(o, '/');
    dec(o, s->bad_inversions, 0);
    trx_out_str(o, "\n\n\n");
}

/* One execution-profile row: ticks, TraceX's percentage, name. */
static void profile_row(trx_out *o, uint64_t ticks, uint64_t max, const char *name)
{
    uint64_t x100 = ticks * 100;
    trx_out_char(o, ' ');
    ticks20(o, ticks);
    if (x100 > 0 && x100 < max) {
        trx_out_str(o, "        <1%");
    } else {
        trx_out_str(o, "        ");
        trx_out_u64_pad(o, max ? x100 / max : 0, 2, '0');
        trx_out_char(o, '%');
    }
    trx_out_str(o, "  ");
    trx_out_str(o, name);
    trx_out_char(o, '\n');
}

static void write_execution(trx_out *o, const trx_trace *t, const trx_stats *s)
{
    banner(o, 14, " Thread Execution ", 29);
    trx_out_str(o, "   Total Ticks      Percentage          Name\n\n");
    for (uint32_t i = 0; i < t->thread_count; i++)
        profile_row(o, s->threads[i].execution_ticks, t->max_ticks,
                    object_name(t, t->threads[i].object_index));
    profile_row(o, s->idle_ticks, t->max_ticks, "Idle System");
    profile_row(o, s->interrupt_ticks, t->max_ticks, "Interrupt");
    trx_out_str(o, "\n\n");
}

static void write_stack(trx_out *o, const trx_trace *t, const trx_stats *s)
{
    banner(o, 14, " Thread Stack Usage ", 27);
    trx_out_str(o, "   Stack Size\tMinimum   Event ID        Name\n\n");
    for (uint32_t i = 0; i < t->thread_count; i++) {
        const trx_thread_stats *ts = &s->threads[i];
        trx_out_char(o, ' ');
        dec(o, t->threads[i].stack_size, 8);
        if (ts->stack_min_available == t->threads[i].stack_size) {
            trx_out_str(o, "          ---       ---");
        } else {
            trx_out_str(o, "     ");
            dec(o, ts->stack_min_available, 8);
            trx_out_str(o, "  ");
            dec(o, ts->stack_min_event, 8);
        }
        trx_out_str(o, "     ");
        trx_out_str(o, object_name(t, t->threads[i].object_index));
        trx_out_char(o, '\n');
    }
    trx_out_str(o, "\n\n");
}

/* One line of the FileX or NetX section: a heading starts a group. */
typedef struct stat_row {
    const char *heading; /* printed before the row when not NULL */
    const char *label;
    size_t offset; /* of the uint64_t counter in the statistics struct */
} stat_row;

#define FX(h, l, f)                                                                                \
    {                                                                                              \
        h, l, offsetof(trx_filex_stats, f)                                                         \
    }
static const stat_row filex_rows[] = {
    FX("\nMedia Statistics:\n", "Opens:         ", media_opens),
    FX(NULL, "Closes:        ", media_closes),
    FX(NULL, "Aborts:        ", media_aborts),
    FX(NULL, "Flushes:       ", media_flushes),
    FX("\nDirectory Statistics:\n", "Reads:         ", directory_reads),
    FX(NULL, "Writes:        ", directory_writes),
    FX(NULL, "Cache Misses:  ", directory_cache_misses),
    FX("\nFile Statistics:\n", "Opens:         ", file_opens),
    FX(NULL, "Closes:        ", file_closes),
    FX(NULL, "Bytes Read:    ", file_bytes_read),
    FX(NULL, "Bytes Written: ", file_bytes_written),
    FX("\nLogical Sector Statistics:\n", "Reads:         ", sector_reads),
    FX(NULL, "Writes:        ", sector_writes),
    FX(NULL, "Cache Misses:  ", sector_cache_misses),
};

#define NX(h, l, f)                                                                                \
    {                                                                                              \
        h, l, offsetof(trx_netx_stats, f)                                                          \
    }
static const stat_row netx_rows[] = {
    NX("\nARP Statistics:\n", "Requests Sent:              ", arp_requests_sent),
    NX(NULL, "Responses Sent:             ", arp_responses_sent),
    NX(NULL, "Requests Received:          ", arp_requests_received),
    NX(NULL, "Responses Received:         ", arp_responses_received),
    NX("\nPacket Pool Statistics:\n", "Allocations:                ", packet_allocations),
    NX(NULL, "Releases:                   ", packet_releases),
    NX(NULL, "Empty Allocation Requests:  ", empty_allocations),
    NX(NULL, "Invalid Releases:           ", invalid_releases),
    NX("\nPing Statistics:\n", "Pings Sent:                 ", pings_sent),
    NX(NULL, "Ping Responses:             ", ping_responses),
    NX("\nIP Statistics:\n", "Packets Sent:               ", ip_packets_sent),
    NX(NULL, "Total Bytes Sent:           ", ip_bytes_sent),
    NX(NULL, "Packets Received:           ", ip_packets_received),
    NX(NULL, "Total Bytes Received:       ", ip_bytes_received),
    NX("\nTCP Statistics:\n", "Client Connections:         ", tcp_client_connections),
    NX(NULL, "Server Connections:         ", tcp_server_connections),
    NX(NULL, "Packets Sent:               ", tcp_packets_sent),
    NX(NULL, "Total Bytes Sent:           ", tcp_bytes_sent),
    NX(NULL, "Packets Received:           ", tcp_packets_received),
    NX(NULL, "Total Bytes Received:       ", tcp_bytes_received),
    NX("\nUDP Statistics:\n", "Packets Sent:               ", udp_packets_sent),
    NX(NULL, "Total Bytes Sent:           ", udp_bytes_sent),
    NX(NULL, "Packets Received:           ", udp_packets_received),
    NX(NULL, "Total Bytes Received:       ", udp_bytes_received),
};

/* Writes a section of counters: banner, `lead`, then the rows. */
static void write_counter_section(trx_out *o, const char *title, const char *lead,
                                  const stat_row *rows, size_t n, const void *stats)
{
    banner(o, 14, title, 29);
    trx_out_str(o, lead);
    for (size_t i = 0; i < n; i++) {
        if (rows[i].heading)
            trx_out_str(o, rows[i].heading);
        uint64_t v;
        memcpy(&v, (const char *)stats + rows[i].offset, sizeof v);
        trx_out_str(o, "  ");
        stat_line(o, rows[i].label, v);
    }
    trx_out_str(o, "\n\n");
}

static void write_services(trx_out *o, const trx_stats *s)
{
    banner(o, 14, " Popular Services ", 29);
    trx_out_str(o, "   Service ID        Count \n\n");
    for (uint32_t i = 0; i < s->service_count; i++) {
        uint32_t id = s->services[i].id;
        trx_out_str(o, id < 438 ? trx_catalog_dump_name(id) : "USER EVENT             ");
        trx_out_char(o, '(');
        dec(o, id, 5);
        trx_out_str(o, ")        ");
        dec(o, s->services[i].count, 8);
        trx_out_char(o, '\n');
    }
    trx_out_str(o, "\n\n");
}

/* A thread or object name (16 characters at most) and its address, padded
 * to 34 columns as TraceX prints them. */
static void name_and_address(trx_out *o, const char *name, uint32_t address)
{
    size_t len = strlen(name);
    if (len > 16)
        len = 16;
    trx_out_mem(o, name, len);
    trx_out_str(o, " (");
    trx_out_hex32(o, address);
    trx_out_char(o, ')');
    spaces(o, (int)(16 - len));
}

/* Context column: 7 spaces, then the thread's name (16 characters at most)
 * and address in 34 columns, or a fixed name in 27. */
static void context_column(trx_out *o, const trx_trace *t, const trx_event *ev)
{
    trx_out_str(o, "       ");
    switch (trx_context_kind_of(ev->context)) {
    case TRX_CTX_ISR:
        trx_out_str(o, "Interrupt                  ");
        return;
    case TRX_CTX_INIT:
        trx_out_str(o, "Initialization             ");
        return;
    case TRX_CTX_IDLE:
        trx_out_str(o, "Idle                       ");
        return;
    default:
        break;
    }
    if (ev->thread >= 0) /* the thread's name and address (TraceX: thread 0 for a non-thread) */
        name_and_address(o, object_name(t, t->threads[ev->thread].object_index),
                         t->threads[ev->thread].address);
    else
        name_and_address(o, "", ev->context);
}

/* Next-context column; `stale` is TraceX's last successfully looked-up
 * address, printed when a lookup fails. */
static void next_column(trx_out *o, const trx_trace *t, uint32_t next, uint32_t *stale)
{
    switch (trx_context_kind_of(next)) {
    case TRX_CTX_ISR:
        trx_out_str(o, "       Interrupt                  ");
        return;
    case TRX_CTX_INIT:
        trx_out_str(o, "       Initialization             ");
        return;
    case TRX_CTX_IDLE:
        trx_out_str(o, "       Idle System                ");
        return;
    default:
        break;
    }
    int32_t ob = trx_trace_find_object(t, next);
    if (ob < 0) {
        trx_out_str(o, "       No Name Found (");
        trx_out_hex32(o, *stale);
        trx_out_str(o, ")    ");
        return;
    }
    *stale = next;
    trx_out_str(o, "       ");
    name_and_address(o, t->objects[ob].name, next);
}

static void write_event(trx_out *o, const trx_trace *t, const trx_event *ev, uint64_t inv,
                        uint64_t bad, uint32_t *stale)
{
    dec(o, ev->index, 8);
    trx_out_str(o, "        ");
    ticks20(o, ev->ticks);
    if (ev->id < 1000) {
        trx_out_str(o, "    ");
        trx_out_str(o, trx_catalog_dump_name(ev->id));
        trx_out_str(o, " (");
    } else {
        trx_out_str(o, "    USER EVENT              (");
    }
    dec(o, ev->id, 5);
    trx_out_char(o, ')');
    if (ev->thread >= 0)
        *stale = t->threads[ev->thread].address;
    context_column(o, t, ev);
    switch (trx_context_kind_of(ev->context)) {
    case TRX_CTX_ISR:
        trx_out_str(o, "    ");
        trx_out_hex32(o, ev->priority);
        trx_out_str(o, "    ");
        break;
    case TRX_CTX_INIT:
        trx_out_str(o, "           -    ");
        break;
    default:
        trx_out_str(o, "    ");
        dec(o, ev->priority, 8);
        if (ev->threshold == TRX_UNKNOWN) {
            trx_out_str(o, " (   ?)    ");
        } else {
            trx_out_str(o, " (");
            dec(o, ev->threshold, 4);
            trx_out_str(o, ")    ");
        }
        break;
    }
    next_column(o, t, ev->next_context, stale);
    for (int k = 0; k < 4; k++) {
        trx_out_str(o, k == 0   ? "    I1: "
                       : k == 1 ? "    I2: "
                       : k == 2 ? "    I3: "
                                : "    I4: ");
        trx_out_hex32(o, ev->info[k]);
    }
    trx_out_str(o, "        ");
    trx_out_hex32(o, ev->timestamp);
    trx_out_str(o, "            ");
    dec(o, inv, 0);
    trx_out_char(o, '-');
    dec(o, bad, 0);
    if (ev->kind == TRX_KIND_RUNNING) {
        trx_out_str(o, "             --------          --------\n");
    } else {
        trx_out_str(o, "             ");
        trx_out_hex32(o, ev->raw_id);
        trx_out_str(o, "          ");
        trx_out_hex32(o, ev->raw_priority);
        trx_out_char(o, '\n');
    }
}

static int write_events(trx_out *o, trx_trace *t, const trx_stats *s)
{
    banner(o, 135, " Trace Events ", 152);
    trx_out_str(o,
                "  Event Number     Relative Time                   Event                        "
                "  Context                        Priority                Next Context           "
                "         Info1           Info2           Info3           Info4        Raw Time S"
                "tamp    Priority Inversion   Raw Event        Raw Priority\n\n");
    trx_cursor c;
    trx_event ev;
    uint32_t stale = 0, m = 0;
    if (trx_cursor_init(&c, t) < 0)
        return -1;
    while (trx_cursor_next(&c, &ev)) {
        uint64_t inv = 0, bad = 0;
        while (m < s->mark_count && s->marks[m].start < ev.index)
            m++;
        for (uint32_t k = m; k < s->mark_count && s->marks[k].start == ev.index; k++) {
            if (s->marks[k].bad)
                bad = s->marks[k].end;
            else
                inv = s->marks[k].end;
        }
        write_event(o, t, &ev, inv, bad, &stale);
    }
    banner(o, 136, " Trace Done ", 152);
    trx_out_char(o, '\n');
    return 0;
}

int trx_dump_write(trx_trace *t, trx_out *o, const char *input_name, const char *output_name)
{
    trx_stats s;
    trx_trace_set_mode(t, t->mode); /* the entries as the mode reads them */
    if (trx_stats_compute(t, &s) < 0)
        return -1;
    write_title(o, input_name, output_name);
    write_header(o, t);
    write_threads(o, t, &s);
    write_objects(o, t);
    write_performance(o, &s);
    write_execution(o, t, &s);
    write_stack(o, t, &s);
    write_counter_section(o, " FileX Performance Statistics ", "", filex_rows,
                          sizeof filex_rows / sizeof filex_rows[0], &s.filex);
    write_counter_section(o, " NetX Performance Statistics ", "\n", netx_rows,
                          sizeof netx_rows / sizeof netx_rows[0], &s.netx);
    write_services(o, &s);
    int r = write_events(o, t, &s);
    trx_stats_free(&s);
    return r;
}
