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

void pf_pack_alloc(pf_pack *p)
{
    p->buf = cio_malloc((size_t)pf_pack_size(p));
    int64_t head[3] = {p->nmsg, p->hwords, p->dbytes};
    memcpy(p->buf, head, sizeof head);
    p->hcur = 0;
    p->dcur = 0;
}

void pf_pack_add(pf_pack *p, const pf_stage *st, const void *data, int64_t bytes)
{
    int32_t *h = (int32_t *)(p->buf + PACK_HEAD) + p->hcur;
    int n = pf_stage_words(st);
    h[0] = n;
    pf_stage_pack(st, h + 1);
    p->hcur += 1 + n;
    memcpy(p->buf + PACK_HEAD + align8(p->hwords * 4) + p->dcur, data, (size_t)bytes);
    p->dcur += bytes;
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
