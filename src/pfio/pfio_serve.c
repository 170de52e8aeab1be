/* Server threads: the receiving half of PFIO's protocol (see serve.h). */
#include "config.h"
#include "pfio_serve.h"
#include "base/util.h"

#include <string.h>

int pf_server_of_client(int m, int C, int S)
{
    /* server p serves [floor(p*C/S), floor((p+1)*C/S)), so p = ceil((m+1)*S/C) - 1 */
    return (int)((((int64_t)m + 1) * S + C - 1) / C - 1);
}

void pf_serve_init(pf_serve *s, pf_ctx *c, int nclients, const int *clients)
{
    memset(s, 0, sizeof *s);
    s->c = c;
    s->nthreads = nclients;
    s->t = cio_calloc((size_t)(nclients ? nclients : 1), sizeof *s->t);
    for (int i = 0; i < nclients; i++) s->t[i].client = clients ? clients[i] : -1;
}

static void free_entry(pf_ctx *c, pf_bl *b)
{
    pf_waitall(b->nreq, b->reqs);
    if (b->data) pf_backlog_add(c, -b->bytes);
    cio_free(b->data);
    cio_free(b->reqs);
    b->data = NULL;
    b->reqs = NULL;
    b->nreq = 0;
}

void pf_serve_clear(pf_serve *s)
{
    for (int i = 0; i < s->nthreads; i++) {
        pf_thread *t = &s->t[i];
        for (int k = 0; k < t->nbl; k++) free_entry(s->c, &t->bl[k]);
        t->nbl = 0;
        t->done = 0;
    }
}

void pf_serve_free(pf_serve *s)
{
    pf_serve_clear(s);
    for (int i = 0; i < s->nthreads; i++) {
        for (int k = 0; k < s->t[i].ncoll; k++) pf_collection_free(&s->t[i].coll[k]);
        cio_free(s->t[i].coll);
        cio_free(s->t[i].bl);
    }
    cio_free(s->t);
    memset(s, 0, sizeof *s);
}

void pf_serve_wait(pf_ctx *c, pf_bl *b)
{
    (void)c;
    pf_waitall(b->nreq, b->reqs);
    b->nreq = 0;
}

int pf_serve_collections(const pf_serve *s, int **ids)
{
    int n = 0;
    *ids = NULL;
    if (s->nthreads == 0) return 0;
    const pf_thread *t = &s->t[0];
    for (int k = 0; k < t->nbl; k++) {
        int id = t->bl[k].st.collection_id, j;
        for (j = 0; j < n; j++)
            if ((*ids)[j] == id) break;
        if (j == n) {
            *ids = cio_realloc(*ids, (size_t)(n + 1) * sizeof **ids);
            (*ids)[n++] = id;
        }
    }
    return n;
}

const pf_collection *pf_serve_collection(const pf_serve *s, int id)
{
    if (s->nthreads == 0 || id < 1 || id > s->t[0].ncoll) cio_die("protocol: collection %d was never added", id);
    return &s->t[0].coll[id - 1];
}

static void reply(pf_serve *s, pf_thread *t, int32_t type, int32_t value)
{
    int32_t w[2] = {type, value};
    pf_send_ctrl(w, type == PF_MSG_ID ? 2 : 1, t->client, s->c->pcomm);
}

static int all_done(const pf_serve *s)
{
    int live = 0;
    for (int i = 0; i < s->nthreads; i++) {
        if (s->t[i].terminated) continue;
        live++;
        if (!s->t[i].done) return 0;
    }
    return live > 0;
}

/* One message from one client, then its handling. */
static void run_thread(pf_serve *s, pf_thread *t)
{
    pf_ctx *c = s->c;
    int n;
    pf_prof_start(&c->prof, "wait_message");
    int32_t *w = pf_recv_ctrl(t->client, c->pcomm, &n);
    pf_prof_stop(&c->prof, "wait_message");
    switch (w[0]) {
    case PF_MSG_ADD_HIST_COLLECTION: {
        pf_prof_start(&c->prof, "add_Histcollection");
        t->coll = cio_realloc(t->coll, (size_t)(t->ncoll + 1) * sizeof *t->coll);
        if (pf_collection_unpack(&t->coll[t->ncoll], w + 1, n - 1) < 0)
            cio_die("protocol: malformed AddHistCollection from rank %d", t->client);
        t->ncoll++;
        reply(s, t, PF_MSG_ID, t->ncoll);
        pf_prof_stop(&c->prof, "add_Histcollection");
        break;
    }
    case PF_MSG_MODIFY_METADATA:
        reply(s, t, PF_MSG_DUMMY, 0);
        break;
    case PF_MSG_COLLECTIVE_STAGE_DATA: {
        if (t->nbl == t->blcap) {
            t->blcap = t->blcap ? 2 * t->blcap : 16;
            t->bl = cio_realloc(t->bl, (size_t)t->blcap * sizeof *t->bl);
        }
        pf_bl *b = &t->bl[t->nbl];
        memset(b, 0, sizeof *b);
        if (pf_stage_unpack(&b->st, w + 1, n - 1) < 0)
            cio_die("protocol: malformed CollectiveStageData from rank %d", t->client);
        reply(s, t, PF_MSG_DUMMY, 0);
        b->bytes = pf_stage_local_elems(&b->st) * (int64_t)cio_type_size(b->st.type);
        b->data = cio_malloc((size_t)(b->bytes ? b->bytes : 1));
        pf_backlog_add(c, b->bytes);
        c->received_bytes += b->bytes;
        b->nreq = pf_big_nreq(b->bytes);
        b->reqs = cio_calloc((size_t)b->nreq, sizeof *b->reqs);
        pf_irecv_big(b->data, b->bytes, t->client, b->st.request_id, c->pcomm, b->reqs);
        t->nbl++;
        break;
    }
    case PF_MSG_COLLECTIVE_STAGE_DONE:
        t->done = 1;
        if (all_done(s)) {
            s->phase(s);
            pf_serve_clear(s);
        }
        break;
    case PF_MSG_TERMINATE:
        t->terminated = 1;
        if (t->nbl) cio_die("protocol: rank %d terminated with %d blocks staged but no Done", t->client, t->nbl);
        break;
    default:
        cio_die("protocol: unexpected message type %d from rank %d", (int)w[0], t->client);
    }
    cio_free(w);
}

void pf_serve_loop(pf_serve *s)
{
    int live = s->nthreads;
    while (live > 0) {
        live = 0;
        int ran = 0;
        for (int i = 0; i < s->nthreads; i++) {
            pf_thread *t = &s->t[i];
            /* a thread that has sent Done waits for the others: its next message
             * belongs to the next phase */
            if (t->terminated || t->done) {
                live += !t->terminated;
                continue;
            }
            run_thread(s, t);
            ran = 1;
            live += !t->terminated;
        }
        if (live > 0 && !ran) cio_die("internal: every client waits in a write phase that never started");
    }
}

void pf_put_block(const pf_stage *st, const void *data, int target, MPI_Aint disp, MPI_Win win)
{
    MPI_Datatype t = st->type == CIO_DOUBLE ? MPI_DOUBLE : MPI_FLOAT;
    int sizes[3], subs[3], starts[3];
    for (int d = 0; d < st->ndims; d++) {
        sizes[d] = (int)st->global_count[d];
        subs[d] = (int)st->count[d];
        starts[d] = (int)st->start[d];
    }
    MPI_Datatype sub;
    MPI_Type_create_subarray(st->ndims, sizes, subs, starts, MPI_ORDER_C, t, &sub);
    MPI_Type_commit(&sub);
    MPI_Put(data, (int)pf_stage_local_elems(st), t, target, disp, 1, sub, win);
    MPI_Type_free(&sub);
}
