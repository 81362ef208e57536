#ifndef FLORAL_CMICROHTTPD_SHIM_H
#define FLORAL_CMICROHTTPD_SHIM_H
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <stdint.h>
#include <stdarg.h>
#include <string.h>
#include <microhttpd.h>

/* Sees each request's raw URI (before percent-decoding); its result becomes the request's context. */
typedef void *(*shop_mhd_uri_logger)(void *cls, const char *uri, struct MHD_Connection *connection);

/* MHD_start_daemon is variadic: Swift reaches it through this fixed-argument helper. */
static inline struct MHD_Daemon *shop_mhd_start(unsigned int flags,
                                                const char *ipv4,
                                                uint16_t port,
                                                MHD_AccessHandlerCallback handler,
                                                void *handler_context,
                                                MHD_RequestCompletedCallback completed,
                                                void *completed_context,
                                                shop_mhd_uri_logger uri_logger,
                                                void *uri_logger_context,
                                                MHD_NotifyConnectionCallback notify_connection,
                                                void *notify_connection_context,
                                                unsigned int threads,
                                                unsigned int connection_limit,
                                                unsigned int per_ip_limit,
                                                unsigned int idle_timeout_seconds,
                                                size_t connection_memory_limit) {
    struct sockaddr_in addr;
    memset(&addr, 0, sizeof(addr));
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    if (inet_pton(AF_INET, ipv4, &addr.sin_addr) != 1) {
        return NULL;
    }
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context,
                            MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)&addr,
                            MHD_OPTION_THREAD_POOL_SIZE, threads,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, idle_timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_logger, uri_logger_context,
                            MHD_OPTION_NOTIFY_CONNECTION, notify_connection, notify_connection_context,
                            MHD_OPTION_END);
}

/* The port the daemon listens on (useful after binding port 0). */
static inline uint16_t shop_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/* Sets one connection's own idle timeout (seconds of silence before libmicrohttpd closes it; 0:
   none), in place of the daemon's MHD_OPTION_CONNECTION_TIMEOUT. MHD_set_connection_option is
   variadic: Swift reaches it through this helper. */
static inline int shop_mhd_set_connection_timeout(struct MHD_Connection *connection, unsigned int seconds) {
    return MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds) == MHD_YES;
}

/* The connection's socket, or -1. */
static inline int shop_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/* What the connection-notify callback stored in the connection's socket context, or NULL. */
static inline void *shop_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/* The client's IPv4/IPv6 address as text, or an empty string. */
static inline void shop_mhd_client_address(struct MHD_Connection *connection, char *out, size_t size) {
    out[0] = 0;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return;
    const struct sockaddr *sa = info->client_addr;
    if (sa->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, out, (socklen_t)size);
    } else if (sa->sa_family == AF_INET6) {
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, out, (socklen_t)size);
    }
}

#endif
