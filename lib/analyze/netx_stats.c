/* netx_stats.c - TraceX's NetX statistics: each event feeds at most one line
 * (tracex.md 2.14). */
#include "analyze/analyses.h"

void trx_netx_feed(trx_netx_stats *n, const trx_event *ev)
{
    const uint32_t *in = ev->info;
    switch (ev->id) {
    case 301:
        n->arp_requests_sent++;
        break;
    case 303:
        n->arp_responses_sent++;
        break;
    case 300:
        n->arp_requests_received++;
        break;
    case 302:
        n->arp_responses_received++;
        break;
    case 386:
        n->packet_allocations++;
        n->empty_allocations += in[3] == 0;
        break;
    case 394:
        n->packet_releases++;
        n->invalid_releases += in[1] != 0xAAAAAAAAu;
        break;
    case 309:
        n->ip_packets_sent++;
        n->ip_bytes_sent += in[3];
        break;
    case 308:
        n->ip_packets_received++;
        n->ip_bytes_received += in[3];
        break;
    case 362:
        n->pings_sent++;
        break;
    case 304:
        n->ping_responses += (in[3] & 0xFFFF0000u) == 0;
        break;
    case 401:
        n->tcp_client_connections++;
        break;
    case 407:
        n->tcp_server_connections++;
        break;
    case 419:
        n->tcp_packets_received++;
        n->tcp_bytes_received += in[2];
        break;
    case 421:
        n->tcp_packets_sent++;
        n->tcp_bytes_sent += in[2];
        break;
    case 434:
        n->udp_packets_received++;
        n->udp_bytes_received += in[3];
        break;
    case 436:
        n->udp_packets_sent++;
        n->udp_bytes_sent += in[2];
        break;
    default:
        break;
    }
}
