#include "config.h"
#include "gcrm_model.h"
#include "base/util.h"

#include <string.h>

static uint64_t next(uint64_t *s)
{
    /* xorshift64*: as cheap per element as the random() fill it stands for */
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static void fill(gcrm_model *m, double *a)
{
    for (size_t i = 0; i < m->elems; i++) a[i] = (double)(next(&m->state) >> 33);
}

void gcrm_model_alloc(gcrm_model *m, const gcrm_grid *g, int physics, int navg)
{
    memset(m, 0, sizeof *m);
    /* the average buffers (floats) are part of GCRM-IO's total */
    m->navg = navg < 64 ? navg : 64;
    m->narrays = (physics ? GCRM_MODEL_ARRAYS_PHYSICS : GCRM_MODEL_ARRAYS_NOPHYSICS) - (m->navg + 1) / 2;
    m->elems = (size_t)g->nsdm * (size_t)g->im * (size_t)g->jm * GCRM_KM;
    m->state = 0x9E3779B97F4A7C15ULL ^ (uint64_t)(g->rank + 1);
    m->a = cio_calloc((size_t)m->narrays, sizeof *m->a);
    m->avg = cio_calloc((size_t)(m->navg ? m->navg : 1), sizeof *m->avg);
    for (int i = 0; i < m->narrays; i++) {
        m->a[i] = cio_malloc(m->elems * sizeof(double));
        fill(m, m->a[i]);       /* touched: resident, as in GCRM-IO */
    }
    for (int i = 0; i < m->navg; i++) m->avg[i] = cio_calloc(m->elems, sizeof(float));
}

void gcrm_model_compute(gcrm_model *m, int64_t step)
{
    m->state ^= (uint64_t)step * 0xD1B54A32D192ED03ULL;
    if (!m->state) m->state = 1;
    for (int i = 0; i < m->narrays; i++) fill(m, m->a[i]);
}

void gcrm_model_accumulate(gcrm_model *m)
{
    for (int i = 0; i < m->navg; i++) {
        const double *src = m->a[i % m->narrays];
        float *dst = m->avg[i];
        for (size_t k = 0; k < m->elems; k++) dst[k] = (float)src[k];
    }
}

void gcrm_model_free(gcrm_model *m)
{
    for (int i = 0; i < m->narrays; i++) cio_free(m->a[i]);
    for (int i = 0; i < m->navg; i++) cio_free(m->avg[i]);
    cio_free(m->a);
    cio_free(m->avg);
    memset(m, 0, sizeof *m);
}
