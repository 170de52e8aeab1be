/* Packs of messages and blocks (see pack.h). */
#include "config.h"
#include "pfio_pack.h"
#include "base/util.h"

#include <string.h>

#define PACK_HEAD 24

static int64_t align8(int64_t n) { return (n + 7) & ~(int64_t)7; }

int64_t pf_pack_size(const pf_pack *p) { return PACK_HEAD + align8(p->hwords * 4) + p->dbytes; }

void pf_pack_count(pf_pack *p, const pf_stage *st, int64_t bytes)
{
    p->nmsg++;
    p->hwords += 1 + pf_stage_words(st);
    p->dbytes += bytes;
}

static int64_t head_size(const pf_pack *p) { return PACK_HEAD + align8(p->hwords * 4); }

/* the buffer, bytes long, starting with the pack's counts */
static void alloc_with_head(pf_pack *p, int64_t bytes)
{
    p->buf = cio_malloc((size_t)bytes);
    int64_t head[3] = {p->nmsg, p->hwords, p->dbytes};
    memcpy(p->buf, head, sizeof head);
    p->hcur = 0;
    p->dcur = 0;
    p->grow = NULL;
}

void pf_pack_alloc(pf_pack *p) { alloc_with_head(p, pf_pack_size(p)); }

static void add_message(pf_pack *p, const pf_stage *st)
{
    int32_t *h = (int32_t *)(p->buf + PACK_HEAD) + p->hcur;
    int n = pf_stage_words(st);
    h[0] = n;
    pf_stage_pack(st, h + 1);
    p->hcur += 1 + n;
}

void pf_pack_add(pf_pack *p, const pf_stage *st, const void *data, int64_t bytes)
{
    add_message(p, st);
    memcpy(p->buf + head_size(p) + p->dcur, data, (size_t)bytes);
    p->dcur += bytes;
}

void pf_pack_alloc_head(pf_pack *p) { alloc_with_head(p, head_size(p)); }

void pf_pack_concat(pf_pack *p, const pf_stage *st, const void *data, int64_t bytes)
{
    add_message(p, st);
    if (bytes == 0) return;     /* add_data_message returns before concatenating an empty block */
    /* idata = [idata, block]: gfortran builds the constructor in a temporary,
     * reallocates idata to its size and copies the temporary in */
    int64_t n = p->dcur + bytes;
    char *tmp = cio_malloc((size_t)n);
    if (p->dcur) memcpy(tmp, p->grow, (size_t)p->dcur);
    memcpy(tmp + p->dcur, data, (size_t)bytes);
    p->grow = cio_realloc(p->grow, (size_t)n);
    memcpy(p->grow, tmp, (size_t)n);
    cio_free(tmp);
    p->dcur = n;
}

void pf_pack_serialize(pf_pack *p)
{
    /* buffer = [messages, k+1, idata]: a temporary again, then the buffer */
    int64_t hs = head_size(p), n = pf_pack_size(p);
    char *tmp = cio_malloc((size_t)n);
    memcpy(tmp, p->buf, (size_t)hs);
    if (p->dcur) memcpy(tmp + hs, p->grow, (size_t)p->dcur);
    cio_free(p->buf);
    cio_free(p->grow);
    p->grow = NULL;
    p->buf = cio_malloc((size_t)n);
    memcpy(p->buf, tmp, (size_t)n);
    cio_free(tmp);
}

void pf_pack_first(const pf_pack *p, pf_stage *st)
{
    const int32_t *h = (const int32_t *)(p->buf + PACK_HEAD);
    if (p->nmsg < 1 || pf_stage_unpack(st, h + 1, h[0]) < 0) cio_die("internal: a pack without a valid first message");
}

void pf_pack_each(const char *buf, int64_t len, void (*fn)(void *ctx, const pf_stage *s, const void *data), void *ctx)
{
    int64_t head[3];
    if (len < PACK_HEAD) cio_die("protocol: a pack of %lld bytes is too short", (long long)len);
    memcpy(head, buf, sizeof head);
    if (head[0] < 0 || head[1] < 0 || head[2] < 0 || PACK_HEAD + align8(head[1] * 4) + head[2] != len)
        cio_die("protocol: a pack of %lld bytes is inconsistent", (long long)len);
    const int32_t *h = (const int32_t *)(buf + PACK_HEAD);
    const char *data = buf + PACK_HEAD + align8(head[1] * 4), *end = buf + len;
    int64_t hk = 0;
    for (int64_t m = 0; m < head[0]; m++) {
        pf_stage s;
        if (hk >= head[1] || pf_stage_unpack(&s, h + hk + 1, (int)(head[1] - hk - 1)) < 0 || h[hk] < 1)
            cio_die("protocol: bad message in a pack");
        hk += 1 + h[hk];
        int64_t b = pf_stage_local_elems(&s) * (int64_t)cio_type_size(s.type);
        if (data + b > end) cio_die("protocol: a pack's blocks overrun it");
        fn(ctx, &s, data);
        data += b;
    }
}
