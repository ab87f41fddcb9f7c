#ifndef HEARTH_CLLAMA_SHIM_H
#define HEARTH_CLLAMA_SHIM_H

#include <llama.h>
#include <ggml.h>
#include <ggml-backend.h>
#include <ggml-cpu.h>

// The CPU backend's thread-pool entry points are looked up through the backend registry so that the
// same code works whether ggml's backends are linked in or loaded dynamically.
static inline struct ggml_threadpool * hearth_cpu_threadpool_new(int n_threads) {
    ggml_backend_reg_t reg = ggml_backend_reg_by_name("CPU");
    if (reg == NULL) { return NULL; }
    typedef struct ggml_threadpool * (*new_fn_t)(struct ggml_threadpool_params *);
    new_fn_t make = (new_fn_t) ggml_backend_reg_get_proc_address(reg, "ggml_threadpool_new");
    if (make == NULL) { return NULL; }
    struct ggml_threadpool_params params = ggml_threadpool_params_default(n_threads);
    return make(&params);
}

static inline void hearth_cpu_threadpool_free(struct ggml_threadpool * pool) {
    ggml_backend_reg_t reg = ggml_backend_reg_by_name("CPU");
    if (reg == NULL || pool == NULL) { return; }
    typedef void (*free_fn_t)(struct ggml_threadpool *);
    free_fn_t release = (free_fn_t) ggml_backend_reg_get_proc_address(reg, "ggml_threadpool_free");
    if (release != NULL) { release(pool); }
}

#endif
