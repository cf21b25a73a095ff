#ifndef ERRTRIAGE_CLIBPQ_SHIM_H
#define ERRTRIAGE_CLIBPQ_SHIM_H
/* PostgreSQL's own client library: connections, statements, COPY, LISTEN/NOTIFY, TLS. */
#include <libpq-fe.h>
#include <poll.h>

/* Waits up to `millis` for the connection's socket to be readable: 1 readable, 0 timed out, -1 error. */
static inline int errtriage_pq_wait_readable(PGconn *conn, int millis) {
    struct pollfd fd = { .fd = PQsocket(conn), .events = POLLIN, .revents = 0 };
    if (fd.fd < 0) return -1;
    int n = poll(&fd, 1, millis);
    return n < 0 ? -1 : (n > 0 ? 1 : 0);
}
#endif
