/* The model ranks: PFIO's clients, driven the way pfio_MAPL_demo drives them.
 * Each step the model computes, then stages one record of every variable of
 * every collection (CollectiveStageData: control message, handshake, MPI_Isend
 * of the local block with the request id as tag); every done_every steps it
 * ends the write phase (CollectiveStageDone), and after each step it waits for
 * its sends (post_wait) unless it is a fast client, which copies its data and
 * waits only when it next uses the server.  With several servers the client
 * takes, for each file, the server MAPL's set_optimal_server chooses at the
 * file's first step (optimal.c), so a file never has writers on two servers.  Everything between the end of the computation and its next start
 * is time blocked in output. */
#include "config.h"
#include "pfio_serve.h"
#include "base/util.h"

#include <string.h>

typedef struct conn {
    int peer;                   /* world rank of my server rank on this server */
    int next_id;
    int staged;                 /* requests since the last Done */
    int nreq, reqcap;
    MPI_Request *reqs;
    int ncopy, copycap;
    void **copies;              /* fast client: copies freed at the next wait */
} conn;

typedef struct field {
    int coll, var;
    int ndims;
    int64_t shape[3], start[3], count[3];
    int64_t elems, bytes;
    void *buf;                  /* the model's array of this variable */
} field;

static void conn_wait(conn *k)
{
    pf_waitall(k->nreq, k->reqs);
    k->nreq = 0;
    for (int i = 0; i < k->ncopy; i++) cio_free(k->copies[i]);
    k->ncopy = 0;
}

static int32_t *expect_reply(pf_ctx *c, conn *k, int type, int *n)
{
    int32_t *w = pf_recv_ctrl(k->peer, c->pcomm, n);
    if (w[0] != type) cio_die("protocol: expected message type %d from the server, got %d", type, (int)w[0]);
    return w;
}

static void stage_remote(pf_ctx *c, conn *k, pf_stage *st, const void *data, int64_t bytes)
{
    int n = pf_stage_words(st), rn;
    int32_t *w = cio_malloc((size_t)(n + 1) * 4);
    w[0] = PF_MSG_COLLECTIVE_STAGE_DATA;
    pf_stage_pack(st, w + 1);
    pf_send_ctrl(w, n + 1, k->peer, c->pcomm);
    cio_free(w);
    cio_free(expect_reply(c, k, PF_MSG_DUMMY, &rn));
    const void *src = data;
    if (c->o.fast_oclient) {
        void *copy = cio_malloc((size_t)(bytes ? bytes : 1));
        memcpy(copy, data, (size_t)bytes);
        if (k->ncopy == k->copycap) {
            k->copycap = k->copycap ? 2 * k->copycap : 16;
            k->copies = cio_realloc(k->copies, (size_t)k->copycap * sizeof *k->copies);
        }
        k->copies[k->ncopy++] = copy;
        src = copy;
    }
    int nr = pf_big_nreq(bytes);
    if (k->nreq + nr > k->reqcap) {
        k->reqcap = 2 * (k->nreq + nr);
        k->reqs = cio_realloc(k->reqs, (size_t)k->reqcap * sizeof *k->reqs);
    }
    pf_isend_big(src, bytes, k->peer, st->request_id, c->pcomm, k->reqs + k->nreq);
    k->nreq += nr;
    k->staged++;
}

/* A client's state through the run. */
typedef struct client {
    pf_ctx *c;
    int ns;                     /* servers (0: this group writes itself) */
    conn *k;                    /* one connection per server */
    int cur;                    /* the server of the files being written */
    pf_mpiserver *local;        /* ns == 0: the group's own writer */
    int local_id;
    int nf;
    field *f;
} client;

/* The model's fields: each rank's (lev, lat, lon) block, all levels, of every
 * variable of every collection; model rank m of C. */
static field *model_fields(const pf_opts *o, int m, int C, int *nf)
{
    int nx, ny;
    pf_decompose_proc(C, &nx, &ny);
    int ix = m % nx, iy = m / nx;
    int64_t i0, ni, j0, nj;
    pf_decompose_dim(o->im, nx, ix, &i0, &ni);
    pf_decompose_dim(o->jm, ny, iy, &j0, &nj);
    size_t ts = cio_type_size(o->type);
    *nf = o->ncollections * o->nvars;
    field *f = cio_calloc((size_t)*nf, sizeof *f);
    for (int k = 0; k < o->ncollections; k++)
        for (int v = 0; v < o->nvars; v++) {
            field *x = &f[k * o->nvars + v];
            x->coll = k + 1;
            x->var = v;
            if (o->vars[v].is3d) {
                x->ndims = 3;
                int64_t sh[3] = {o->km, o->jm, o->im}, st[3] = {0, j0, i0}, ct[3] = {o->km, nj, ni};
                memcpy(x->shape, sh, sizeof sh);
                memcpy(x->start, st, sizeof st);
                memcpy(x->count, ct, sizeof ct);
            } else {
                x->ndims = 2;
                int64_t sh[2] = {o->jm, o->im}, st[2] = {j0, i0}, ct[2] = {nj, ni};
                memcpy(x->shape, sh, sizeof sh);
                memcpy(x->start, st, sizeof st);
                memcpy(x->count, ct, sizeof ct);
            }
            x->elems = 1;
            for (int d = 0; d < x->ndims; d++) x->elems *= x->count[d];
            x->bytes = x->elems * (int64_t)ts;
            x->buf = cio_malloc((size_t)(x->bytes ? x->bytes : 1));
        }
    return f;
}

/* AddHistCollection on every server: the id it returns is the collection's. */
static void add_collections(client *cl)
{
    pf_ctx *c = cl->c;
    for (int i = 0; i < c->o.ncollections; i++) {
        if (cl->ns == 0) {
            pf_mpiserver_local_add(cl->local, &c->coll[i]);
            continue;
        }
        int n = pf_collection_words(&c->coll[i]);
        int32_t *w = cio_malloc((size_t)(n + 1) * 4);
        w[0] = PF_MSG_ADD_HIST_COLLECTION;
        pf_collection_pack(&c->coll[i], w + 1);
        for (int s = 0; s < cl->ns; s++) {
            int rn;
            pf_send_ctrl(w, n + 1, cl->k[s].peer, c->pcomm);
            int32_t *r = expect_reply(c, &cl->k[s], PF_MSG_ID, &rn);
            if (rn < 2 || r[1] != c->coll[i].id)
                cio_die("protocol: o_server%d gave collection %d the id %d", s + 1, c->coll[i].id, rn < 2 ? -1 : (int)r[1]);
            cio_free(r);
        }
        cio_free(w);
    }
}

/* One field's record: the model's new values (their time returned, outside the
 * output time), then staged to the server or the group's own writer. */
static double stage_field(client *cl, const field *x, int file, int record, int phase)
{
    const pf_opts *o = &cl->c->o;
    pf_stage st;
    memset(&st, 0, sizeof st);
    st.collection_id = x->coll;
    st.file = file;
    st.var = x->var;
    st.record = record;
    st.phase = phase;
    st.type = o->type;
    st.ndims = x->ndims;
    memcpy(st.start, x->start, sizeof st.start);
    memcpy(st.count, x->count, sizeof st.count);
    memcpy(st.global_count, x->shape, sizeof st.global_count);
    pf_file_name(o, x->coll, file, st.file_name, sizeof st.file_name);
    snprintf(st.var_name, sizeof st.var_name, "%s", o->vars[x->var].name);
    double tf = MPI_Wtime();
    cio_box box = {x->ndims, x->shape, x->start, x->count};
    uint64_t sum = 0, key = pf_pattern_key(x->coll, st.var_name, file);
    if (o->data == CIO_DATA_MODEL) {
        cio_model_var mv = {st.var_name, pf_var_units(st.var_name), key, NULL};
        cio_model_fill(&mv, o->type, record, &box, x->buf, &sum);
    } else {
        cio_pattern_fill(o->type, x->buf, cio_pattern_seed(key, record), &box, &sum);
    }
    double fill_s = MPI_Wtime() - tf;
    if (cl->ns) {
        conn *k = &cl->k[cl->cur];
        st.request_id = k->next_id;
        k->next_id = k->next_id == PF_REQ_LAST ? PF_REQ_FIRST : k->next_id + 1;
        stage_remote(cl->c, k, &st, x->buf, x->bytes);
    } else {
        st.request_id = cl->local_id;
        cl->local_id = cl->local_id == PF_REQ_LAST ? PF_REQ_FIRST : cl->local_id + 1;
        pf_mpiserver_local_stage(cl->local, &st, x->buf);
    }
    cl->c->staged_bytes += x->bytes;
    return fill_s;
}

/* CollectiveStageDone to every server staged to since the last. */
static void stage_done(client *cl)
{
    if (!cl->ns) {
        pf_mpiserver_local_done(cl->local);
        return;
    }
    for (int s = 0; s < cl->ns; s++)
        if (cl->k[s].staged) {
            int32_t w = PF_MSG_COLLECTIVE_STAGE_DONE;
            pf_send_ctrl(&w, 1, cl->k[s].peer, cl->c->pcomm);
            cl->k[s].staged = 0;
        }
}

/* Step n's output: the server of a new file, every field staged, the phase's end. */
static void output_step(client *cl, int n, pf_server_choice *choice, FILE *log)
{
    pf_ctx *c = cl->c;
    const pf_opts *o = &c->o;
    double t0 = MPI_Wtime();
    int file = (n - 1) / o->num_time_records, record = (n - 1) % o->num_time_records;
    int phase = (n - 1) / o->done_every;
    if (cl->ns) {
        /* set_optimal_server(nwriting) every step, as pfio_MAPL_demo calls it,
         * with nwriting the collections written; but its choice is followed
         * only at the first record of a file, so a file keeps one server.
         * (The demo follows it every step while it sends the Done that writes
         * a phase only to the last server chosen: with several servers, a
         * record staged on another one is never written.)  Then wait() for
         * what we sent that server. */
        int chosen = pf_choice_next(choice, o->ncollections, record == 0 && cl->ns > 1 ? log : NULL);
        if (record == 0) cl->cur = chosen;
        conn *k = &cl->k[cl->cur];
        conn_wait(k);
        if (record == 0)
            for (int i = 0; i < o->ncollections; i++) {
                int32_t w[2] = {PF_MSG_MODIFY_METADATA, c->coll[i].id};
                int rn;
                pf_send_ctrl(w, 2, k->peer, c->pcomm);
                cio_free(expect_reply(c, k, PF_MSG_DUMMY, &rn));
            }
    }
    for (int i = 0; i < cl->nf; i++) t0 += stage_field(cl, &cl->f[i], file, record, phase);
    if (n % o->done_every == 0 || n == o->num_steps) stage_done(cl);
    if (cl->ns && !o->fast_oclient) conn_wait(&cl->k[cl->cur]);   /* post_wait */
    double dt = MPI_Wtime() - t0;
    c->blocked_s += dt;
    c->ph.blocked[phase] += dt;
}

void pf_client_run(pf_ctx *c)
{
    const pf_opts *o = &c->o;
    int m, C;
    MPI_Comm_rank(c->group_comm, &m);
    MPI_Comm_size(c->group_comm, &C);
    client cl = {.c = c, .ns = o->nserver, .local_id = PF_REQ_FIRST};
    cl.f = model_fields(o, m, C, &cl.nf);

    /* connections: one per server, to the server rank that serves this client */
    int ns = cl.ns;
    cl.k = cio_calloc((size_t)(ns ? ns : 1), sizeof *cl.k);
    for (int s = 0; s < ns; s++) {
        const pf_server_layout *S = &c->L.server[s];
        cl.k[s].peer = S->front[pf_server_of_client(m, C, S->nfront)];
        cl.k[s].next_id = PF_REQ_FIRST;
    }
    if (ns == 0) cl.local = pf_mpiserver_new(c, c->group_comm, c->L.model, 1, NULL);
    /* split_server_pools, as pfio_MAPL_demo calls it; MAPL prints on model rank 0 */
    FILE *log = c->L.model[0] == c->wrank && !o->quiet ? stdout : NULL;
    pf_server_choice choice;
    int *sizes = cio_calloc((size_t)(ns ? ns : 1), sizeof(int));
    for (int s = 0; s < ns; s++) sizes[s] = c->L.server[s].nranks;
    pf_choice_init(&choice, ns, sizes, 0, 0, ns > 1 ? log : NULL);
    cio_free(sizes);
    add_collections(&cl);

    for (int n = 1; n <= o->num_steps; n++) {
        c->compute_s += pf_compute(o, o->compute_time);
        output_step(&cl, n, &choice, log);
    }
    /* terminate: wait for every send, then tell every server */
    double t0 = MPI_Wtime();
    for (int s = 0; s < ns; s++) {
        conn_wait(&cl.k[s]);
        int32_t w = PF_MSG_TERMINATE;
        pf_send_ctrl(&w, 1, cl.k[s].peer, c->pcomm);
    }
    double dt = MPI_Wtime() - t0;
    c->blocked_s += dt;
    c->ph.blocked[o->nphases - 1] += dt;

    for (int s = 0; s < ns; s++) {
        cio_free(cl.k[s].reqs);
        cio_free(cl.k[s].copies);
    }
    cio_free(cl.k);
    pf_choice_free(&choice);
    pf_mpiserver_free(cl.local);
    for (int i = 0; i < cl.nf; i++) cio_free(cl.f[i].buf);
    cio_free(cl.f);
}
