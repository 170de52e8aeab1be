/* Checking that the data files of a BP5 output hold what its index and
 * metadata say, before any data is read: ADIOS2 retries a short read of a
 * truncated data.N forever.  The index (md.idx) names, per step and writer,
 * the subfile and the position where the writer's data starts; the metadata
 * names each writer's blocks, whose bytes a subfile holds at least. */
#include "config.h"
#include "drivers/bp_layout.h"
#include "base/util.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define INDEX_HEADER 64
#define INDEX_BP_VERSION 37     /* the header's byte that says BP4 or BP5 */

/* What the index says a subfile holds at least, per subfile. */
typedef struct index_need {
    int nsub, nwriters;
    int *sub_of;                /* writer -> subfile, under the last writer map */
    int map_changed;            /* the writers moved between subfiles over the steps */
    uint64_t *need;             /* subfile -> bytes */
} index_need;

static void need_free(index_need *n)
{
    cio_free(n->sub_of);
    cio_free(n->need);
}

/* A writer map record: writers, aggregators, subfiles, then each writer's subfile. */
static int writer_map(index_need *n, const uint64_t *v, size_t nv)
{
    if (nv < 3 || v[0] < 1 || v[0] > 1u << 24 || v[2] < 1 || v[2] > 1u << 24 || nv < 3 + v[0]) return -1;
    if (n->sub_of) n->map_changed = 1;
    if ((int)v[2] > n->nsub) {
        n->need = cio_realloc(n->need, v[2] * sizeof *n->need);
        memset(n->need + n->nsub, 0, (v[2] - (size_t)n->nsub) * sizeof *n->need);
        n->nsub = (int)v[2];
    }
    n->nwriters = (int)v[0];
    cio_free(n->sub_of);
    n->sub_of = cio_malloc((size_t)n->nwriters * sizeof *n->sub_of);
    for (int w = 0; w < n->nwriters; w++) {
        if (v[3 + w] >= v[2]) return -1;
        n->sub_of[w] = (int)v[3 + w];
    }
    return 0;
}

/* A step record: metadata position and size, flushes, then per writer each
 * flush's (position, size) and the position of its data of the step. */
static int step_record(index_need *n, const uint64_t *v, size_t nv)
{
    if (!n->sub_of || nv < 3) return -1;
    uint64_t flushes = v[2];
    if (flushes > nv || nv != 3 + (size_t)n->nwriters * (2 * (size_t)flushes + 1)) return -1;
    const uint64_t *p = v + 3;
    for (int w = 0; w < n->nwriters; w++) {
        uint64_t *need = &n->need[n->sub_of[w]];
        for (uint64_t f = 0; f < flushes; f++, p += 2)
            if (p[0] + p[1] > *need) *need = p[0] + p[1];
        if (*p > *need) *need = *p;
        p++;
    }
    return 0;
}

/* The index's records into n: 1 not a BP5 index (nothing to check), 0, -1 malformed. */
static int read_index(const char *bp, index_need *n)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/md.idx", bp);
    FILE *f = fopen(path, "rb");
    if (!f) return 1;           /* ADIOS2 says what is missing when it opens */
    unsigned char head[INDEX_HEADER];
    int rc = fread(head, 1, sizeof head, f) == sizeof head && head[INDEX_BP_VERSION] == 5 ? 0 : 1;
    while (rc == 0) {
        unsigned char type;
        uint64_t len;
        if (fread(&type, 1, 1, f) != 1) break;
        if (fread(&len, sizeof len, 1, f) != 1 || len % 8 || len > (1u << 30)) {
            rc = -1;
            break;
        }
        uint64_t *v = cio_malloc(len ? (size_t)len : 1);
        if (fread(v, 1, (size_t)len, f) != len) rc = -1;
        else if (type == 'w') rc = writer_map(n, v, (size_t)len / 8);
        else if (type == 's') rc = step_record(n, v, (size_t)len / 8);
        cio_free(v);
    }
    fclose(f);
    return rc;
}

/* The bytes of every array block a writer put, added to its subfile's need.  A
 * lower bound: the adios2 driver compresses nothing and single values live in
 * the metadata. */
static void add_block_bytes(index_need *n, adios2_engine *eng, adios2_io *io)
{
    adios2_variable **vars = NULL;
    size_t nvars = 0;
    if (n->map_changed || adios2_inquire_all_variables(&vars, &nvars, io) != adios2_error_none) return;
    uint64_t *sum = cio_calloc((size_t)n->nsub, sizeof *sum);
    for (size_t i = 0; i < nvars; i++) {
        size_t ndims = 0, steps = 0;
        adios2_type t;
        cio_type ct;
        if (adios2_variable_ndims(&ndims, vars[i]) || ndims == 0 || adios2_variable_type(&t, vars[i]) ||
            cio_bp_from_type(t, &ct) || ct == CIO_CHAR || adios2_variable_steps(&steps, vars[i]))
            continue;
        for (size_t s = 0; s < steps; s++) {
            adios2_varinfo *vi = adios2_inquire_blockinfo(eng, vars[i], s);
            for (size_t b = 0; vi && b < vi->nblocks; b++) {
                const adios2_blockinfo *bi = &vi->BlocksInfo[b];
                uint64_t bytes = cio_type_size(ct);
                for (size_t k = 0; k < ndims; k++) bytes *= bi->Count[k];
                if (bi->WriterID >= 0 && bi->WriterID < n->nwriters) sum[n->sub_of[bi->WriterID]] += bytes;
            }
            if (vi) adios2_free_blockinfo(vi);
        }
    }
    for (int k = 0; k < n->nsub; k++)
        if (sum[k] > n->need[k]) n->need[k] = sum[k];
    cio_free(sum);
    free(vars);
}

int cio_bp_check_data(const char *bp, adios2_engine *eng, adios2_io *io, int rank, int nprocs, char *err,
                      size_t errlen)
{
    index_need n = {0};
    int rc = read_index(bp, &n);
    if (rc != 0) {
        need_free(&n);
        if (rc > 0) return 0;
        snprintf(err, errlen, "%s/md.idx: not a BP5 index as ADIOS2 2.x writes it (a record is cut or malformed)", bp);
        return -1;
    }
    add_block_bytes(&n, eng, io);
    for (int k = rank; k < n.nsub && rc == 0; k += nprocs) {   /* this rank's share of the subfiles */
        char path[4200];
        struct stat st;
        snprintf(path, sizeof path, "%s/data.%d", bp, k);
        if (stat(path, &st) != 0) {
            snprintf(err, errlen, "%s: cannot read it: %s (the index names it as subfile %d)", path, strerror(errno), k);
            rc = -1;
        } else if ((uint64_t)st.st_size < n.need[k]) {
            snprintf(err, errlen, "%s: %lld bytes, expected at least %llu for the blocks the index and metadata "
                     "name: the output is truncated", path, (long long)st.st_size, (unsigned long long)n.need[k]);
            rc = -1;
        }
    }
    need_free(&n);
    return rc;
}
