/* Who does what: MAPL's SimpleCommSplitter (the model group, then one group per
 * output server, walking nodes and the ranks within them; with node isolation
 * every group starts on a new node and the rest of a node a group leaves is
 * idle) and MultiGroupServer's split of a server into frontend and backend
 * (per node, the last npes_backend_pernode ranks are backend).  A pure function
 * of the nodes and the options, so every rank computes the same layout and
 * unit tests can check the wiki's formulas. */
#include "config.h"
#include "pfio.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* "model 28 ranks, o_server1 1 node" for messages */
static void describe_groups(const pf_opts *o, int nmodel, char *buf, size_t len)
{
    size_t u = (size_t)snprintf(buf, len, "model %d rank%s", nmodel, nmodel == 1 ? "" : "s");
    for (int i = 0; i < o->nserver && u < len; i++) {
        int v = o->by_nodes ? o->server_nodes[i] : o->server_npes[i];
        u += (size_t)snprintf(buf + u, len - u, ", o_server%d %d %s%s", i + 1, v, o->by_nodes ? "node" : "rank",
                              v == 1 ? "" : "s");
    }
}

/* Processes the groups need on nodes of n ranks (the wiki's formulas). */
static int64_t needed(const pf_opts *o, int nmodel, int n)
{
    int ng = 1 + o->nserver;
    int64_t total = 0;
    for (int g = 0; g < ng; g++) {
        int last = g == ng - 1;
        if (g > 0 && o->by_nodes) {
            total += (int64_t)o->server_nodes[g - 1] * n;
            continue;
        }
        int64_t npes = g == 0 ? nmodel : o->server_npes[g - 1];
        if (o->isolate && !last) total += (npes + n - 1) / n * n;
        else total += npes;
    }
    return total;
}

static int split_server(pf_server_layout *S, const pf_nodes *n, const pf_opts *o, int index, cio_err *e)
{
    /* server-comm order is world order; group the ranks by node in that order */
    int *node_seen = cio_calloc((size_t)S->nranks, sizeof(int)), *count = cio_calloc((size_t)S->nranks, sizeof(int));
    int *slot = cio_calloc((size_t)S->nranks, sizeof(int));
    int nn = 0;
    for (int i = 0; i < S->nranks; i++) {
        int nd = n->node_of[S->ranks[i]], k;
        for (k = 0; k < nn; k++)
            if (node_seen[k] == nd) break;
        if (k == nn) node_seen[nn++] = nd;
        slot[i] = k;
        count[k]++;
    }
    S->nnodes = nn;
    int rc = 0;
    if (!o->split) {
        S->nfront = S->nranks;
        S->front = cio_calloc((size_t)S->nranks, sizeof(int));
        memcpy(S->front, S->ranks, (size_t)S->nranks * sizeof(int));
        goto out;
    }
    int b = o->npes_backend_pernode, ns = count[0];
    for (int k = 1; k < nn; k++)
        if (count[k] != ns) {
            rc = cio_seterr(e, "o_server%d spans %d nodes with %d and %d of its ranks: the %s server needs the "
                               "same number of server ranks on every node (size it with --nodes_output_server, or "
                               "make --npes_output_server a multiple of the node size)",
                            index + 1, nn, ns, count[k], o->multicomm ? "multicomm" : "multigroup");
            goto out;
        }
    if (ns - b < 1) {
        rc = cio_seterr(e, "o_server%d: --npes_backend_pernode %d leaves no frontend rank on its node%s of %d server "
                           "rank%s (the frontend receives from the model; use fewer backend ranks per node)",
                        index + 1, b, nn == 1 ? "" : "s", ns, ns == 1 ? "" : "s");
        goto out;
    }
    if (o->by_nodes && nn != o->server_nodes[index]) {
        rc = cio_seterr(e, "Inconsistent output server number. The requested %d nodes for output server is different "
                           "from available %d nodes", o->server_nodes[index], nn);
        goto out;
    }
    S->nback = b * nn;
    S->captain = o->multigroup;
    S->nfront = S->nranks - S->nback;
    S->front = cio_calloc((size_t)S->nfront, sizeof(int));
    S->back = cio_calloc((size_t)S->nback, sizeof(int));
    int *seen = cio_calloc((size_t)nn, sizeof(int)), nf = 0, nb = 0;
    for (int i = 0; i < S->nranks; i++) {
        int in_node = seen[slot[i]]++;
        if (in_node < ns - b) S->front[nf++] = S->ranks[i];
        else S->back[nb++] = S->ranks[i];
    }
    cio_free(seen);
out:
    cio_free(node_seen);
    cio_free(count);
    cio_free(slot);
    return rc;
}

/* The members of each group in world order (MPI_Comm_split by world rank). */
static void group_members(pf_layout *L, const pf_nodes *n, const pf_opts *o, int nmodel)
{
    L->model = cio_calloc((size_t)nmodel, sizeof(int));
    L->nserver = o->nserver;
    L->server = cio_calloc((size_t)(o->nserver ? o->nserver : 1), sizeof *L->server);
    for (int r = 0; r < n->nprocs; r++) {
        int g = L->group[r];
        if (g < 0) {
            L->nidle++;
        } else if (g == 0) {
            L->model[L->nmodel++] = r;
        } else {
            pf_server_layout *S = &L->server[g - 1];
            S->ranks = cio_realloc(S->ranks, (size_t)(S->nranks + 1) * sizeof(int));
            S->ranks[S->nranks++] = r;
        }
    }
}

int pf_layout_build(pf_layout *L, const pf_nodes *n, const pf_opts *o, cio_err *e)
{
    memset(L, 0, sizeof *L);
    L->nprocs = L->nbase = n->nprocs;
    L->group = cio_calloc((size_t)(n->nprocs ? n->nprocs : 1), sizeof(int));
    for (int r = 0; r < n->nprocs; r++) L->group[r] = -1;
    int nmodel = o->npes_model < 0 ? n->nprocs : o->npes_model;
    if (nmodel < 1) return cio_seterr(e, "--npes_model %d: the model needs at least one rank", o->npes_model);
    int ng = 1 + o->nserver;
    int node = 0, off = 0;
    for (int g = 0; g < ng; g++) {
        if (o->isolate && off > 0) {
            node++;
            off = 0;
        }
        int short_of = 0;
        if (g > 0 && o->by_nodes) {
            int nn = o->server_nodes[g - 1];
            if (node + nn > n->nnodes) short_of = 1;
            else {
                for (int k = node; k < node + nn; k++)
                    for (int i = n->node_first[k]; i < n->node_first[k + 1]; i++) L->group[n->ranks[i]] = g;
                node += nn;
            }
        } else {
            int need = g == 0 ? nmodel : o->server_npes[g - 1];
            while (need > 0) {
                if (node >= n->nnodes) {
                    short_of = 1;
                    break;
                }
                int take = n->node_size[node] - off < need ? n->node_size[node] - off : need;
                for (int i = 0; i < take; i++) L->group[n->ranks[n->node_first[node] + off + i]] = g;
                off += take;
                need -= take;
                if (off == n->node_size[node]) {
                    node++;
                    off = 0;
                }
            }
        }
        if (short_of) {
            char groups[512];
            describe_groups(o, nmodel, groups, sizeof groups);
            int nsz = n->node_size[0];
            return cio_seterr(e, "not enough processes: the groups (%s) need %lld processes on nodes of %d%s, but %d "
                                 "were started on %d node%s%s%s", groups, (long long)needed(o, nmodel, nsz), nsz,
                              o->isolate ? " with node isolation (each group starts on a new node; --compress_nodes "
                                           "packs them)" : "",
                              n->nprocs, n->nnodes, n->nnodes == 1 ? "" : "s",
                              o->npes_model < 0 ? "; --npes_model defaults to every rank, so give it when there are "
                                                  "server ranks" : "",
                              o->cores_per_node > 0 ? " (nodes emulated by --cores_per_node)" : "");
        }
    }
    group_members(L, n, o, nmodel);
    for (int i = 0; i < L->nserver; i++) {
        pf_server_layout *S = &L->server[i];
        qsort(S->ranks, (size_t)S->nranks, sizeof(int), cmp_int);
        if (split_server(S, n, o, i, e) != 0) return -1;
        /* every receiving server rank serves a block of clients; MAPL assumes at least one each */
        if (S->nfront > L->nmodel)
            return cio_seterr(e, "o_server%d has %d %s ranks but the model only %d: every %s rank needs at least one "
                                 "client (use fewer server ranks%s)", i + 1, S->nfront,
                              o->split ? "frontend" : "server", L->nmodel, o->split ? "frontend" : "server",
                              o->split ? " or more --npes_backend_pernode" : "");
    }
    return 0;
}

int pf_layer_procs(const pf_opts *o) { return o->multilayer ? o->nserver * o->npes_backend_pernode : 0; }

void pf_layout_add_layers(pf_layout *L, int nprocs, const pf_opts *o)
{
    if (!o->multilayer || nprocs <= L->nprocs) return;
    int b = o->npes_backend_pernode, first = L->nprocs;
    L->group = cio_realloc(L->group, (size_t)nprocs * sizeof(int));
    for (int r = first; r < nprocs; r++) L->group[r] = -1;     /* in no group of the splitter */
    L->nprocs = nprocs;
    for (int i = 0; i < L->nserver; i++) {
        pf_server_layout *S = &L->server[i];
        S->layered = 1;
        S->captain = 1;
        S->nback = b;
        S->back = cio_calloc((size_t)b, sizeof(int));
        for (int k = 0; k < b; k++) S->back[k] = first + i * b + k;
    }
}

void pf_layout_free(pf_layout *L)
{
    for (int i = 0; i < L->nserver; i++) {
        cio_free(L->server[i].ranks);
        cio_free(L->server[i].front);
        cio_free(L->server[i].back);
    }
    cio_free(L->server);
    cio_free(L->model);
    cio_free(L->group);
    memset(L, 0, sizeof *L);
}

pf_role pf_layout_role(const pf_layout *L, int r, int *server)
{
    *server = -1;
    for (int i = 0; i < L->nserver && r >= L->nbase; i++)
        for (int k = 0; k < L->server[i].nback; k++)
            if (L->server[i].layered && L->server[i].back[k] == r) {
                *server = i;
                return k == 0 ? PF_ROLE_ML_CAPTAIN : PF_ROLE_ML_WRITER;
            }
    int g = L->group[r];
    if (g < 0) return PF_ROLE_IDLE;
    if (g == 0) return PF_ROLE_MODEL;
    const pf_server_layout *S = &L->server[g - 1];
    *server = g - 1;
    if (S->layered) return PF_ROLE_ML_FRONT;
    if (!S->nback) return PF_ROLE_SERVER;
    for (int i = 0; i < S->nback; i++)
        if (S->back[i] == r) return !S->captain ? PF_ROLE_BACK : i == 0 ? PF_ROLE_CAPTAIN : PF_ROLE_WRITER;
    return PF_ROLE_FRONT;
}

int pf_window_collisions(const pf_layout *L, const pf_nodes *n, const pf_opts *o)
{
    if (o->split || L->nserver < 2) return 0;
    for (int a = 0; a < L->nserver; a++)
        for (int b = a + 1; b < L->nserver; b++)
            for (int i = 0; i < L->server[a].nranks; i++)
                for (int j = 0; j < L->server[b].nranks; j++)
                    if (n->real_node_of[L->server[a].ranks[i]] == n->real_node_of[L->server[b].ranks[j]]) return 1;
    return 0;
}

static void node_range(const pf_nodes *n, const int *ranks, int count, char *buf, size_t len)
{
    int lo = n->nnodes, hi = -1;
    for (int i = 0; i < count; i++) {
        int k = n->node_of[ranks[i]];
        if (k < lo) lo = k;
        if (k > hi) hi = k;
    }
    if (hi < 0) snprintf(buf, len, "no node");
    else if (lo == hi) snprintf(buf, len, "node %d", lo + 1);
    else snprintf(buf, len, "nodes %d-%d", lo + 1, hi + 1);
}

void pf_layout_print(FILE *out, const pf_layout *L, const pf_nodes *n, const pf_opts *o)
{
    /* MAPL's own start-up lines */
    if (L->nserver == 0) fprintf(out, " Starting pFIO output server on Clients\n");
    for (int i = 0; i < L->nserver; i++) {
        if (o->by_nodes) fprintf(out, "Starting pFIO output server on %d nodes\n", o->server_nodes[i]);
        else fprintf(out, "Starting pFIO output server on %d pes\n", o->server_npes[i]);
        if (o->multigroup)
            fprintf(out, " MultiServer Start: nfront, nwriter %11d %11d\n", L->server[i].nfront, L->server[i].nback - 1);
    }
    /* and ours */
    int uniform = 1;
    for (int k = 1; k < n->nnodes; k++) uniform &= n->node_size[k] == n->node_size[0];
    fprintf(out, "pfio_io layout: %d processes on %d %snode%s", L->nbase, n->nnodes,
            o->cores_per_node > 0 ? "emulated " : "", n->nnodes == 1 ? "" : "s");
    if (uniform) fprintf(out, " of %d\n", n->node_size[0]);
    else fprintf(out, " (sizes differ)\n");
    char where[64];
    node_range(n, L->model, L->nmodel, where, sizeof where);
    fprintf(out, "  model       %5d ranks on %s%s\n", L->nmodel, where,
            L->nserver == 0 ? ", with the simple server (MpiServer) on the same ranks: synchronous output" : "");
    for (int i = 0; i < L->nserver; i++) {
        const pf_server_layout *S = &L->server[i];
        node_range(n, S->ranks, S->nranks, where, sizeof where);
        fprintf(out, "  o_server%-3d %5d ranks on %s: ", i + 1, S->nranks, where);
        if (S->layered)
            fprintf(out, "multilayer, %d ranks receive and forward to %d writer processes (1 captain + %d soldier%s: "
                    "ranks %d-%d, %s)\n", S->nranks, S->nback, S->nback - 1, S->nback == 2 ? "" : "s", S->back[0],
                    S->back[S->nback - 1], o->ml_spawn ? "spawned" : "the job's last ranks");
        else if (S->nback && S->captain)
            fprintf(out, "multigroup, %d frontend + %d backend (1 captain + %d writer%s)\n", S->nfront, S->nback,
                    S->nback - 1, S->nback == 2 ? "" : "s");
        else if (S->nback)
            fprintf(out, "multicomm, %d frontend + %d backend writer%s (RMA windows)\n", S->nfront, S->nback,
                    S->nback == 1 ? "" : "s");
        else fprintf(out, "single (MpiServer), %d ranks receive and write\n", S->nranks);
    }
    if (L->nidle) fprintf(out, "  idle        %5d ranks (in no group: node isolation padding or spare processes)\n", L->nidle);
}
