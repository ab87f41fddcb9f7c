#ifndef HEARTH_CLLAMA_SHIM_H
#define HEARTH_CLLAMA_SHIM_H

#include <llama.h>
#include <ggml.h>
#include <ggml-backend.h>
#include <ggml-cpu.h>
#include <mtmd.h>
#include <mtmd-helper.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

// The CPU backend's thread-pool entry points are looked up through the backend registry so that the
// same code works whether ggml's backends are linked in or loaded dynamically. The free function is looked up
// when a pool is made and kept: a pool may be freed while the process exits, when the registry's own storage
// may already be gone.
typedef void (*hearth_threadpool_free_t)(struct ggml_threadpool *);

static inline hearth_threadpool_free_t * hearth_threadpool_free_slot(void) {
    static hearth_threadpool_free_t slot = NULL;
    return &slot;
}

static inline struct ggml_threadpool * hearth_cpu_threadpool_new(int n_threads) {
    ggml_backend_reg_t reg = ggml_backend_reg_by_name("CPU");
    if (reg == NULL) { return NULL; }
    typedef struct ggml_threadpool * (*new_fn_t)(struct ggml_threadpool_params *);
    new_fn_t make = (new_fn_t) ggml_backend_reg_get_proc_address(reg, "ggml_threadpool_new");
    hearth_threadpool_free_t release =
        (hearth_threadpool_free_t) ggml_backend_reg_get_proc_address(reg, "ggml_threadpool_free");
    if (make == NULL || release == NULL) { return NULL; }
    *hearth_threadpool_free_slot() = release;
    struct ggml_threadpool_params params = ggml_threadpool_params_default(n_threads);
    return make(&params);
}

static inline void hearth_cpu_threadpool_free(struct ggml_threadpool * pool) {
    hearth_threadpool_free_t release = *hearth_threadpool_free_slot();
    if (release != NULL && pool != NULL) { release(pool); }
}

// Whether a TCP connection to host:port opens within `timeout_ms`. ggml's RPC client aborts the process when a
// worker cannot be reached, so a worker is checked this way first.
static inline int hearth_tcp_reachable(const char * host, const char * port, int timeout_ms) {
    struct addrinfo hints;
    memset(&hints, 0, sizeof(hints));
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    struct addrinfo * found = NULL;
    if (getaddrinfo(host, port, &hints, &found) != 0 || found == NULL) { return 0; }
    int reachable = 0;
    for (struct addrinfo * address = found; address != NULL && !reachable; address = address->ai_next) {
        int fd = socket(address->ai_family, address->ai_socktype, address->ai_protocol);
        if (fd < 0) { continue; }
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK);
        int started = connect(fd, address->ai_addr, address->ai_addrlen);
        if (started == 0) {
            reachable = 1;
        } else {
            struct pollfd waiting = { .fd = fd, .events = POLLOUT, .revents = 0 };
            if (poll(&waiting, 1, timeout_ms) == 1) {
                int error = 0;
                socklen_t length = sizeof(error);
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length);
                reachable = error == 0;
            }
        }
        close(fd);
    }
    freeaddrinfo(found);
    return reachable;
}

// Connects to an rpc-server worker at `endpoint` (host:port) and registers its devices with ggml. Writes up to
// `max` of them to `devices` and returns how many it offers: -1 when this llama.cpp has no RPC backend, 0 when the
// worker cannot be reached. Found through the registry, so a build without RPC still links.
static inline int hearth_rpc_add_server(const char * endpoint, ggml_backend_dev_t * devices, int max) {
    ggml_backend_reg_t rpc = ggml_backend_reg_by_name("RPC");
    if (rpc == NULL) { return -1; }
    typedef ggml_backend_reg_t (*add_fn_t)(const char *);
    add_fn_t add = (add_fn_t) ggml_backend_reg_get_proc_address(rpc, "ggml_backend_rpc_add_server");
    if (add == NULL) { return -1; }
    ggml_backend_reg_t reg = add(endpoint);
    if (reg == NULL) { return 0; }
    ggml_backend_register(reg);
    size_t count = ggml_backend_reg_dev_count(reg);
    for (size_t i = 0; i < count && (int) i < max; i++) { devices[i] = ggml_backend_reg_dev_get(reg, i); }
    return (int) count;
}

// The path of the shared library llama.cpp was loaded from, so that the set-up's records beside it can be
// found. dladdr is declared under a name of our own (bound to the same symbol) because the C library only
// declares it for _GNU_SOURCE builds.
typedef struct hearth_dl_info {
    const char * dli_fname;
    void * dli_fbase;
    const char * dli_sname;
    void * dli_saddr;
} hearth_dl_info;
#ifdef __APPLE__
int hearth_dladdr(const void * address, hearth_dl_info * info) __asm__("_dladdr");
#else
int hearth_dladdr(const void * address, hearth_dl_info * info) __asm__("dladdr");
#endif

static inline const char * hearth_llama_library_path(void) {
    hearth_dl_info info;
    if (hearth_dladdr((const void *) &llama_backend_init, &info) == 0 || info.dli_fname == NULL) { return NULL; }
    return info.dli_fname;
}

#endif
