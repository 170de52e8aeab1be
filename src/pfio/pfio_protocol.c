/* PFIO's wire protocol (MpiSocket): control messages are arrays of 4-byte words
 * [type, payload...] sent with a blocking MPI_Send and received with
 * MPI_Probe + MPI_Get_count + MPI_Recv; bulk data goes by MPI_Isend/Irecv with
 * the request id as the tag. */
#include "config.h"
#include "pfio.h"
#include "base/mpiwait.h"
#include "base/util.h"

#include <limits.h>
#include <string.h>
#include <time.h>

int pf_str_words(const char *s) { return 2 + ((int)strlen(s) + 3) / 4; }

int pf_str_pack(const char *s, int32_t *w)
{
    int len = (int)strlen(s), nw = (len + 3) / 4;
    w[0] = len;
    w[1] = nw;
    memset(w + 2, 0, (size_t)nw * 4);
    memcpy(w + 2, s, (size_t)len);
    return 2 + nw;
}

int pf_str_unpack(char *s, size_t cap, const int32_t *w, int nwords)
{
    if (nwords < 2) return -1;
    int len = w[0], nw = w[1];
    if (len < 0 || nw != (len + 3) / 4 || 2 + nw > nwords || (size_t)len >= cap) return -1;
    memcpy(s, w + 2, (size_t)len);
    s[len] = '\0';
    return 2 + nw;
}

/* ---------------------------------------------------------------- CollectiveStageData */
/* [request_id, collection_id, file, var, phase, type, file_name, var_name,
 *  start, count, global_start, global_count] with the arrays as [n, v...] over
 *  the record dimension and the variable's own, record first. */
int pf_stage_words(const pf_stage *s)
{
    return 6 + pf_str_words(s->file_name) + pf_str_words(s->var_name) + 4 * (1 + s->ndims + 1);
}

static int pack_arr(int32_t *w, int64_t first, const int64_t *v, int n)
{
    w[0] = n + 1;
    w[1] = (int32_t)first;
    for (int i = 0; i < n; i++) w[2 + i] = (int32_t)v[i];
    return n + 2;
}

void pf_stage_pack(const pf_stage *s, int32_t *w)
{
    int k = 0;
    w[k++] = s->request_id;
    w[k++] = s->collection_id;
    w[k++] = s->file;
    w[k++] = s->var;
    w[k++] = s->phase;
    w[k++] = (int32_t)s->type;
    k += pf_str_pack(s->file_name, w + k);
    k += pf_str_pack(s->var_name, w + k);
    int64_t zero[3] = {0, 0, 0};
    k += pack_arr(w + k, s->record, s->start, s->ndims);
    k += pack_arr(w + k, 1, s->count, s->ndims);
    k += pack_arr(w + k, s->record, zero, s->ndims);
    k += pack_arr(w + k, 1, s->global_count, s->ndims);
}

static int unpack_arr(const int32_t *w, int nwords, int64_t *first, int64_t *v, int *n)
{
    if (nwords < 1 || w[0] < 1 || w[0] > 4 || w[0] + 1 > nwords) return -1;
    *n = w[0] - 1;
    *first = w[1];
    for (int i = 0; i < *n; i++) v[i] = w[2 + i];
    return w[0] + 1;
}

int pf_stage_unpack(pf_stage *s, const int32_t *w, int nwords)
{
    memset(s, 0, sizeof *s);
    if (nwords < 6) return -1;
    int k = 0, used, n[4];
    s->request_id = w[k++];
    s->collection_id = w[k++];
    s->file = w[k++];
    s->var = w[k++];
    s->phase = w[k++];
    s->type = (cio_type)w[k++];
    if (s->type < 0 || s->type >= CIO_NTYPES) return -1;
    if ((used = pf_str_unpack(s->file_name, sizeof s->file_name, w + k, nwords - k)) < 0) return -1;
    k += used;
    if ((used = pf_str_unpack(s->var_name, sizeof s->var_name, w + k, nwords - k)) < 0) return -1;
    k += used;
    int64_t rec, rec2, one, gs[3];
    if ((used = unpack_arr(w + k, nwords - k, &rec, s->start, &n[0])) < 0) return -1;
    k += used;
    if ((used = unpack_arr(w + k, nwords - k, &one, s->count, &n[1])) < 0) return -1;
    k += used;
    if ((used = unpack_arr(w + k, nwords - k, &rec2, gs, &n[2])) < 0) return -1;
    k += used;
    if ((used = unpack_arr(w + k, nwords - k, &one, s->global_count, &n[3])) < 0) return -1;
    k += used;
    if (n[0] != n[1] || n[0] != n[2] || n[0] != n[3] || rec != rec2 || rec < 0) return -1;
    s->record = (int)rec;
    s->ndims = n[0];
    for (int i = 0; i < s->ndims; i++)
        if (s->start[i] < 0 || s->count[i] < 0 || s->start[i] + s->count[i] > s->global_count[i]) return -1;
    return k;
}

int64_t pf_stage_local_elems(const pf_stage *s)
{
    int64_t n = 1;
    for (int i = 0; i < s->ndims; i++) n *= s->count[i];
    return n;
}

int64_t pf_stage_global_elems(const pf_stage *s)
{
    int64_t n = 1;
    for (int i = 0; i < s->ndims; i++) n *= s->global_count[i];
    return n;
}

/* ---------------------------------------------------------------- waiting */
/* MPI implementations spin in blocking calls.  On a machine with fewer cores
 * than ranks the spinning servers take the cores the model and the writers
 * need, so --server_poll_us makes every wait of the protocol test for
 * completion and sleep in between (backing off from 1 us to the limit). */
static double poll_max_s;

void pf_set_poll(double us) { poll_max_s = us * 1e-6; }

static void nap(double *s)
{
    struct timespec ts = {0, (long)(*s * 1e9)};
    nanosleep(&ts, NULL);
    *s = *s * 2 < poll_max_s ? *s * 2 : poll_max_s;
}

void pf_probe(int src, int tag, MPI_Comm comm, MPI_Status *st)
{
    if (poll_max_s <= 0) {
        MPI_Probe(src, tag, comm, st);
        return;
    }
    double s = 1e-6;
    for (int flag = 0;;) {
        MPI_Iprobe(src, tag, comm, &flag, st);
        if (flag) return;
        nap(&s);
    }
}

void pf_recv(void *buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm)
{
    MPI_Status st;
    pf_probe(src, tag, comm, &st);
    MPI_Recv(buf, count, type, st.MPI_SOURCE, tag, comm, MPI_STATUS_IGNORE);
}

void pf_waitall(int n, MPI_Request *reqs)
{
    if (n <= 0) return;
    if (poll_max_s <= 0) {
        cio_waitall(n, reqs);
        return;
    }
    double s = 1e-6;
    while (!cio_testall(n, reqs)) nap(&s);
}

void pf_lazy_barrier(MPI_Comm comm)
{
    MPI_Request r;
    MPI_Ibarrier(comm, &r);
    double s = 1e-6, saved = poll_max_s;
    if (poll_max_s < 1e-3) poll_max_s = 1e-3;
    for (int flag = 0;;) {
        MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        if (flag) break;
        nap(&s);
    }
    poll_max_s = saved;
}

/* ---------------------------------------------------------------- transport */
void pf_send_ctrl(const int32_t *w, int n, int dest, MPI_Comm comm)
{
    MPI_Send(w, n, MPI_INT32_T, dest, PF_TAG_CTRL, comm);
}

int32_t *pf_recv_ctrl(int src, MPI_Comm comm, int *n)
{
    MPI_Status st;
    pf_probe(src, PF_TAG_CTRL, comm, &st);
    MPI_Get_count(&st, MPI_INT32_T, n);
    int32_t *w = cio_malloc((size_t)(*n ? *n : 1) * sizeof *w);
    MPI_Recv(w, *n, MPI_INT32_T, st.MPI_SOURCE, PF_TAG_CTRL, comm, MPI_STATUS_IGNORE);
    if (*n < 1) cio_die("protocol: empty control message from rank %d", st.MPI_SOURCE);
    return w;
}

#define PF_CHUNK ((int64_t)1 << 30)

int pf_big_nreq(int64_t bytes) { return bytes <= PF_CHUNK ? 1 : (int)((bytes + PF_CHUNK - 1) / PF_CHUNK); }

void pf_isend_big(const void *buf, int64_t bytes, int dest, int tag, MPI_Comm comm, MPI_Request *reqs)
{
    int n = pf_big_nreq(bytes);
    for (int i = 0; i < n; i++) {
        int64_t off = (int64_t)i * PF_CHUNK, len = bytes - off < PF_CHUNK ? bytes - off : PF_CHUNK;
        MPI_Isend((const char *)buf + off, (int)len, MPI_BYTE, dest, tag, comm, &reqs[i]);
    }
}

void pf_irecv_big(void *buf, int64_t bytes, int src, int tag, MPI_Comm comm, MPI_Request *reqs)
{
    int n = pf_big_nreq(bytes);
    for (int i = 0; i < n; i++) {
        int64_t off = (int64_t)i * PF_CHUNK, len = bytes - off < PF_CHUNK ? bytes - off : PF_CHUNK;
        MPI_Irecv((char *)buf + off, (int)len, MPI_BYTE, src, tag, comm, &reqs[i]);
    }
}
