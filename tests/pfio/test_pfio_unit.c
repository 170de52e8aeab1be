/* pfio_io's pure parts against the MAPL wiki and reference: the node-aware
 * layout (the wiki's process-count formulas, the demo's 23 + 5 split), the
 * refusals, the demo's decomposition, the client-to-server block mapping, the
 * command-line lists, the wire format, block placement, and the profiler's
 * report, which must reproduce the wiki's lines exactly. */
/* sanitizers: yes */
#include "config.h"
#include "pfio.h"
#include "pfio_serve.h"
#include "check.h"
#include "base/util.h"

#include <string.h>

/* Options from "key value" pairs, as the command line would give them; the
 * parameters live until the next call (the options point into them). */
static cio_params *last_params;
static pf_opts last_opts;

static void opts_done(void)
{
    pf_opts_free(&last_opts);
    cio_params_free(last_params);
    last_params = NULL;
}

static int opts(pf_opts *o, cio_err *e, const char *const *kv)
{
    const cio_param_spec *tables[] = {cio_common_params, pf_params, NULL};
    opts_done();
    cio_params *p = last_params = cio_params_new(tables);
    memset(e, 0, sizeof *e);
    memset(o, 0, sizeof *o);
    for (int i = 0; kv[i]; i += 2)
        if (cio_params_set(p, kv[i], kv[i + 1], "test", e) != 0) return -1;
    int rc = pf_opts_parse(o, p, e);
    last_opts = *o;
    return rc;
}

static int layout(pf_layout *L, pf_nodes *n, int nnodes, const int *sizes, const char *const *kv, cio_err *e)
{
    pf_opts o;
    memset(L, 0, sizeof *L);
    pf_nodes_from_sizes(n, nnodes, sizes);
    if (opts(&o, e, kv) != 0) return -1;
    return pf_layout_build(L, n, &o, e);
}

static int count_group(const pf_layout *L, int g)
{
    int n = 0;
    for (int r = 0; r < L->nprocs; r++) n += L->group[r] == g;
    return n;
}

static void test_demo_layout(void)
{
    /* mpiexec -np 56 --npes_model 28 --oserver_type multigroup --nodes_output_server 1 --npes_backend_pernode 5 */
    int sizes[2] = {28, 28};
    const char *kv[] = {"npes_model", "28", "oserver_type", "multigroup", "nodes_output_server", "1",
                        "npes_backend_pernode", "5", NULL};
    pf_layout L;
    pf_nodes n;
    cio_err e;
    CHECK_EQ_INT(layout(&L, &n, 2, sizes, kv, &e), 0);
    CHECK_EQ_INT(L.nmodel, 28);
    CHECK_EQ_INT(L.model[27], 27);
    CHECK_EQ_INT(L.nserver, 1);
    CHECK_EQ_INT(L.server[0].nranks, 28);
    CHECK_EQ_INT(L.server[0].nfront, 23);       /* "The frontend has 28-5=23 processes" */
    CHECK_EQ_INT(L.server[0].nback, 5);         /* 1 captain + 4 writers */
    CHECK_EQ_INT(L.server[0].front[0], 28);
    CHECK_EQ_INT(L.server[0].back[0], 51);
    CHECK_EQ_INT(L.server[0].back[4], 55);
    int s;
    CHECK_EQ_INT(pf_layout_role(&L, 51, &s), PF_ROLE_CAPTAIN);
    CHECK_EQ_INT(pf_layout_role(&L, 52, &s), PF_ROLE_WRITER);
    CHECK_EQ_INT(pf_layout_role(&L, 50, &s), PF_ROLE_FRONT);
    CHECK_EQ_INT(pf_layout_role(&L, 0, &s), PF_ROLE_MODEL);
    CHECK_EQ_INT(L.nidle, 0);
    pf_layout_free(&L);
    pf_nodes_free(&n);

    /* two server nodes: 5 backend on each, 23 frontend on each */
    int sizes3[4] = {28, 28, 28, 28};
    const char *kv2[] = {"npes_model", "56", "oserver_type", "multigroup", "nodes_output_server", "2",
                         "npes_backend_pernode", "5", NULL};
    CHECK_EQ_INT(layout(&L, &n, 4, sizes3, kv2, &e), 0);
    CHECK_EQ_INT(L.server[0].nfront, 46);
    CHECK_EQ_INT(L.server[0].nback, 10);
    CHECK_EQ_INT(L.server[0].back[0], 56 + 23);
    CHECK_EQ_INT(L.server[0].back[5], 84 + 23);
    CHECK_EQ_INT(L.server[0].front[23], 84);
    pf_layout_free(&L);
    pf_nodes_free(&n);
}

static void test_multilayer_layout(void)
{
    /* two single-node servers of 2 ranks each after a 4-rank model, on nodes of 4,
     * and 3 writer processes per server (MAPL's nwriters = npes_backend_pernode)
     * as the last 6 ranks: in no node of the layout */
    int sizes[3] = {4, 4, 4}, sizes_all[4] = {4, 4, 4, 2};
    const char *kv[] = {"npes_model", "4", "oserver_type", "multilayer", "npes_output_server", "2,2",
                        "npes_backend_pernode", "3", "compress_nodes", "true", NULL};
    pf_layout L;
    pf_nodes n, all;
    cio_err e;
    pf_opts o;
    CHECK_EQ_INT(opts(&o, &e, kv), 0);
    CHECK_EQ_INT(pf_layer_procs(&o), 6);
    /* the nodes of all 14 ranks, cut to the first 8: the same as 8 ranks alone */
    pf_nodes_from_sizes(&all, 4, sizes_all);
    pf_nodes_truncate(&all, 8);
    CHECK_EQ_INT(all.nprocs, 8);
    CHECK_EQ_INT(all.nnodes, 2);
    CHECK_EQ_INT(all.node_size[1], 4);
    pf_nodes_free(&all);
    CHECK_EQ_INT(layout(&L, &n, 2, sizes, kv, &e), 0);
    pf_layout_add_layers(&L, 14, &last_opts);
    CHECK_EQ_INT(L.nbase, 8);
    CHECK_EQ_INT(L.nprocs, 14);
    CHECK_EQ_INT(L.server[1].nfront, 2);        /* every server rank receives */
    CHECK_EQ_INT(L.server[1].nback, 3);
    CHECK_EQ_INT(L.server[1].back[0], 11);      /* o_server2's captain */
    int s;
    CHECK_EQ_INT(pf_layout_role(&L, 4, &s), PF_ROLE_ML_FRONT);
    CHECK_EQ_INT(s, 0);
    CHECK_EQ_INT(pf_layout_role(&L, 8, &s), PF_ROLE_ML_CAPTAIN);
    CHECK_EQ_INT(pf_layout_role(&L, 13, &s), PF_ROLE_ML_WRITER);
    CHECK_EQ_INT(s, 1);
    CHECK_EQ_INT(L.group[13], -1);              /* in no group of the splitter */
    pf_layout_free(&L);
    pf_nodes_free(&n);
    /* one writer process cannot be captain and soldier */
    const char *one[] = {"oserver_type", "multilayer", "npes_output_server", "1", "npes_backend_pernode", "1", NULL};
    CHECK(opts(&o, &e, one) != 0 && strstr(e.msg, "captain-soldier needs at least two backend processes"));
}

static void test_isolation_formulas(void)
{
    /* isolation: npes = ceil(n1/n)*n + n2, the rest of the model's last node idle */
    int sizes[3] = {28, 28, 10};
    const char *kv[] = {"npes_model", "30", "npes_output_server", "10", NULL};
    pf_layout L;
    pf_nodes n;
    cio_err e;
    CHECK_EQ_INT(layout(&L, &n, 3, sizes, kv, &e), 0);
    CHECK_EQ_INT(L.nmodel, 30);
    CHECK_EQ_INT(L.server[0].nranks, 10);
    CHECK_EQ_INT(L.server[0].ranks[0], 56);
    CHECK_EQ_INT(L.nidle, 26);
    CHECK_EQ_INT(L.group[30], -1);
    pf_layout_free(&L);
    pf_nodes_free(&n);
    /* one process short */
    int sizes2[3] = {28, 28, 9};
    CHECK(layout(&L, &n, 3, sizes2, kv, &e) != 0);
    CHECK_CONTAINS(e.msg, "need 66 processes on nodes of 28 with node isolation");
    CHECK_CONTAINS(e.msg, "but 65 were started on 3 nodes");
    pf_layout_free(&L);
    pf_nodes_free(&n);
    /* --compress_nodes: npes = n1 + n2 */
    int sizes4[2] = {28, 12};
    const char *kv2[] = {"npes_model", "30", "npes_output_server", "10", "compress_nodes", "true", NULL};
    CHECK_EQ_INT(layout(&L, &n, 2, sizes4, kv2, &e), 0);
    CHECK_EQ_INT(count_group(&L, 0), 30);
    CHECK_EQ_INT(count_group(&L, 1), 10);
    CHECK_EQ_INT(L.server[0].ranks[0], 30);
    CHECK_EQ_INT(L.nidle, 0);
    pf_layout_free(&L);
    pf_nodes_free(&n);
    /* --nodes_output_server k: npes = ceil(n1/n)*n + k*n; a vector of servers, each on its own nodes */
    int sizes6[5] = {8, 4, 4, 4, 1};
    const char *kv3[] = {"npes_model", "8", "nodes_output_server", "1,2", NULL};
    CHECK_EQ_INT(layout(&L, &n, 5, sizes6, kv3, &e), 0);
    CHECK_EQ_INT(L.nserver, 2);
    CHECK_EQ_INT(L.server[0].nranks, 4);
    CHECK_EQ_INT(L.server[0].ranks[0], 8);
    CHECK_EQ_INT(L.server[1].nranks, 8);
    CHECK_EQ_INT(L.server[1].ranks[0], 12);
    CHECK_EQ_INT(L.nidle, 1);          /* the spare node */
    CHECK_EQ_INT(L.group[20], -1);
    pf_layout_free(&L);
    pf_nodes_free(&n);
    /* a server rank without a client is refused (MAPL assumes every server rank has one) */
    int sizes5[4] = {4, 4, 4, 4};
    const char *kv6[] = {"npes_model", "3", "nodes_output_server", "1", NULL};
    CHECK(layout(&L, &n, 4, sizes5, kv6, &e) != 0);
    CHECK_CONTAINS(e.msg, "o_server1 has 4 server ranks but the model only 3");
    pf_layout_free(&L);
    pf_nodes_free(&n);
    /* --one_node_output: 1 2 becomes 1 1 1 */
    const char *kv4[] = {"npes_model", "4", "nodes_output_server", "1 2", "one_node_output", "true", NULL};
    CHECK_EQ_INT(layout(&L, &n, 4, sizes5, kv4, &e), 0);
    CHECK_EQ_INT(L.nserver, 3);
    for (int i = 0; i < 3; i++) CHECK_EQ_INT(L.server[i].nranks, 4);
    pf_layout_free(&L);
    pf_nodes_free(&n);
    /* the model defaults to every rank, so servers then do not fit */
    const char *kv5[] = {"npes_output_server", "2", NULL};
    CHECK(layout(&L, &n, 4, sizes5, kv5, &e) != 0);
    CHECK_CONTAINS(e.msg, "--npes_model defaults to every rank");
    pf_layout_free(&L);
    pf_nodes_free(&n);
}

static void test_refusals(void)
{
    pf_layout L;
    pf_nodes n;
    cio_err e;
    int sizes[2] = {4, 4};
    const char *captain[] = {"npes_model", "4", "oserver_type", "multigroup", "nodes_output_server", "1",
                             "npes_backend_pernode", "1", NULL};
    CHECK(layout(&L, &n, 2, sizes, captain, &e) != 0);
    CHECK_CONTAINS(e.msg, "captain-soldier needs at least two backend ranks");
    pf_nodes_free(&n);
    const char *nofront[] = {"npes_model", "4", "oserver_type", "multigroup", "nodes_output_server", "1",
                             "npes_backend_pernode", "4", NULL};
    CHECK(layout(&L, &n, 2, sizes, nofront, &e) != 0);
    CHECK_CONTAINS(e.msg, "leaves no frontend rank");
    pf_layout_free(&L);
    pf_nodes_free(&n);
    int big[2] = {2, 8};
    const char *toomany[] = {"npes_model", "2", "oserver_type", "multigroup", "nodes_output_server", "1",
                             "npes_backend_pernode", "2", NULL};
    CHECK(layout(&L, &n, 2, big, toomany, &e) != 0);
    CHECK_CONTAINS(e.msg, "o_server1 has 6 frontend ranks but the model only 2");
    pf_layout_free(&L);
    pf_nodes_free(&n);
    const char *uneven[] = {"npes_model", "4", "oserver_type", "multigroup", "npes_output_server", "6",
                            "npes_backend_pernode", "2", NULL};
    int three[3] = {4, 4, 4};
    CHECK(layout(&L, &n, 3, three, uneven, &e) != 0);
    CHECK_CONTAINS(e.msg, "same number of server ranks on every node");
    pf_layout_free(&L);
    pf_nodes_free(&n);
    const char *both[] = {"npes_output_server", "2", "nodes_output_server", "1", NULL};
    pf_opts o;
    CHECK(opts(&o, &e, both) != 0);
    CHECK_CONTAINS(e.msg, "not both");
    const char *nodes_compress[] = {"nodes_output_server", "1", "compress_nodes", "true", NULL};
    CHECK(opts(&o, &e, nodes_compress) != 0);
    CHECK_CONTAINS(e.msg, "needs node isolation");
    const char *phase[] = {"num_time_records", "6", "done_every", "4", NULL};
    CHECK(opts(&o, &e, phase) != 0);
    CHECK_CONTAINS(e.msg, "done_every 4 does not divide num_time_records 6");
    const char *vars[] = {"variables", "temperature:4d", NULL};
    CHECK(opts(&o, &e, vars) != 0);
    CHECK_CONTAINS(e.msg, "expected ':3d' or ':2d'");
    const char *lst[] = {"npes_output_server", "2 x", NULL};
    CHECK(opts(&o, &e, lst) != 0);
    CHECK_CONTAINS(e.msg, "expected a list of non-negative integers");
    const char *one[] = {"one_node_output", "true", NULL};
    CHECK(opts(&o, &e, one) != 0);
    CHECK_CONTAINS(e.msg, "--one_node_output needs --nodes_output_server");
}

static void test_decomposition(void)
{
    int nx, ny;
    pf_decompose_proc(28, &nx, &ny);
    CHECK_EQ_INT(nx, 7);
    CHECK_EQ_INT(ny, 4);
    pf_decompose_proc(7, &nx, &ny);
    CHECK_EQ_INT(nx, 7);
    CHECK_EQ_INT(ny, 1);
    int64_t s, c, want_i[7] = {52, 52, 52, 51, 51, 51, 51}, want_j[4] = {46, 45, 45, 45}, next = 0;
    for (int k = 0; k < 7; k++) {
        pf_decompose_dim(360, 7, k, &s, &c);
        CHECK_EQ_INT(c, want_i[k]);
        CHECK_EQ_INT(s, next);
        next += c;
    }
    next = 0;
    for (int k = 0; k < 4; k++) {
        pf_decompose_dim(181, 4, k, &s, &c);
        CHECK_EQ_INT(c, want_j[k]);
        CHECK_EQ_INT(s, next);
        next += c;
    }
    /* 28 clients over 23 frontend ranks: contiguous blocks, 1 or 2 each */
    int per[23] = {0};
    for (int m = 0; m < 28; m++) per[pf_server_of_client(m, 28, 23)]++;
    int ones = 0, twos = 0;
    for (int p = 0; p < 23; p++) ones += per[p] == 1, twos += per[p] == 2;
    CHECK_EQ_INT(ones, 18);
    CHECK_EQ_INT(twos, 5);
    CHECK_EQ_INT(pf_server_of_client(0, 28, 23), 0);
    CHECK_EQ_INT(pf_server_of_client(27, 28, 23), 22);
    /* the block rule itself, for many sizes */
    for (int C = 1; C <= 40; C++)
        for (int S = 1; S <= C; S++)
            for (int m = 0; m < C; m++) {
                int p = pf_server_of_client(m, C, S);
                CHECK(p >= 0 && p < S && (int64_t)p * C / S <= m && m < (int64_t)(p + 1) * C / S);
            }
}

static void test_argv(void)
{
    char *in[] = {"pfio_io", "--npes_model", "28", "--npes_output_server", "2", "3", "4", "pfio.in",
                  "\xe2\x80\x93nodes_output_server", "1", "1", "--oserver_type", "multigroup", NULL};
    int n;
    char **out = pf_argv_rewrite(13, in, &n);
    CHECK_EQ_INT(n, 8);
    CHECK(strcmp(out[3], "--npes_output_server=2,3,4") == 0);
    CHECK(strcmp(out[4], "pfio.in") == 0);
    CHECK(strcmp(out[5], "--nodes_output_server=1,1") == 0);
    CHECK(strcmp(out[7], "multigroup") == 0);
    int *v, nv;
    cio_err e = {0};
    CHECK_EQ_INT(pf_parse_int_list("2,3 4", &v, &nv, &e, "x"), 0);
    CHECK_EQ_INT(nv, 3);
    CHECK_EQ_INT(v[2], 4);
    cio_free(v);
    CHECK(pf_parse_int_list("2,-3", &v, &nv, &e, "x") != 0 && v == NULL);
    cio_free(out[3]);
    cio_free(out[5]);
    cio_free(out);
}

static void test_wire(void)
{
    pf_stage s, t;
    memset(&s, 0, sizeof s);
    s.request_id = 10011;
    s.collection_id = 1;
    s.file = 2;
    s.var = 0;
    s.record = 5;
    s.phase = 2;
    s.type = CIO_FLOAT;
    s.ndims = 3;
    int64_t st[3] = {0, 46, 104}, ct[3] = {72, 45, 52}, gc[3] = {72, 181, 360};
    memcpy(s.start, st, sizeof st);
    memcpy(s.count, ct, sizeof ct);
    memcpy(s.global_count, gc, sizeof gc);
    strcpy(s.file_name, "out/Nsample_pfio_file_Day0003.nc4");
    strcpy(s.var_name, "temperature");
    int n = pf_stage_words(&s);
    CHECK(n >= 35 && n <= 45);      /* about 150 bytes, as PFIO's messages */
    int32_t w[64];
    pf_stage_pack(&s, w);
    CHECK_EQ_INT(pf_stage_unpack(&t, w, n), n);
    CHECK_EQ_INT(t.request_id, 10011);
    CHECK_EQ_INT(t.record, 5);
    CHECK_EQ_INT(t.start[2], 104);
    CHECK_EQ_INT(t.global_count[1], 181);
    CHECK(strcmp(t.file_name, s.file_name) == 0 && strcmp(t.var_name, "temperature") == 0);
    CHECK_EQ_INT(pf_stage_local_elems(&t), 72 * 45 * 52);
    w[n - 1] = 100;                 /* a block outside the global array */
    CHECK(pf_stage_unpack(&t, w, n) < 0);

    /* a 2 x 3 block placed at (1, 2) of a 4 x 6 array */
    pf_stage b;
    memset(&b, 0, sizeof b);
    b.type = CIO_INT;
    b.ndims = 2;
    b.start[0] = 1, b.start[1] = 2, b.count[0] = 2, b.count[1] = 3, b.global_count[0] = 4, b.global_count[1] = 6;
    int blk[6] = {1, 2, 3, 4, 5, 6}, g[24] = {0};
    pf_place_block(&b, blk, g);
    CHECK_EQ_INT(g[1 * 6 + 2], 1);
    CHECK_EQ_INT(g[1 * 6 + 4], 3);
    CHECK_EQ_INT(g[2 * 6 + 2], 4);
    CHECK_EQ_INT(g[2 * 6 + 4], 6);
    CHECK_EQ_INT(g[0], 0);
    CHECK_EQ_INT(g[3 * 6 + 5], 0);

    pf_opts o;
    cio_err e;
    const char *kv[] = {"collections", "1", NULL};
    CHECK_EQ_INT(opts(&o, &e, kv), 0);
    pf_collection c, d;
    pf_collection_init(&c, &o, 1);
    int cw = pf_collection_words(&c);
    int32_t *buf = cio_malloc((size_t)cw * 4);
    pf_collection_pack(&c, buf);
    CHECK_EQ_INT(pf_collection_unpack(&d, buf, cw), cw);
    CHECK_EQ_INT(d.im, 360);
    CHECK_EQ_INT(d.nvars, 2);
    CHECK(strcmp(d.vars[1].name, "tracer") == 0 && !d.vars[1].is3d);
    char fn[256];
    pf_file_name(&o, 1, 0, fn, sizeof fn);
    CHECK(strcmp(fn, "out/Nsample_pfio_file_Day0001.nc4") == 0);
    pf_collection_free(&c);
    pf_collection_free(&d);
    cio_free(buf);
}

/* MAPL's set_optimal_server on vectors of oservers (ClientManager.F90), steps
 * of one collection each: the sequences worked by hand from its rules */
static void test_server_choice(void)
{
    pf_server_choice ch;
    int sizes3[3] = {4, 2, 6}, want3[4] = {0, 2, 1, 0};
    pf_choice_init(&ch, 3, sizes3, 0, 0, NULL);
    CHECK_EQ_INT(ch.ssize, 1);          /* sorted 2 | 4 6: the small pool is the 2-rank server */
    CHECK_EQ_INT(ch.small[0], 1);
    CHECK_EQ_INT(ch.lsize, 2);
    for (int i = 0; i < 4; i++) CHECK_EQ_INT(pf_choice_next(&ch, 1, NULL), want3[i]);
    pf_choice_free(&ch);
    /* two equal servers: the large pool (the second) first, then the small one;
     * from then on both pools' last steps weigh the same per rank, and a tie
     * goes to the large pool, so MAPL keeps choosing it */
    int sizes2[2] = {3, 3}, want2[4] = {1, 0, 1, 1};
    pf_choice_init(&ch, 2, sizes2, 0, 0, NULL);
    for (int i = 0; i < 4; i++) CHECK_EQ_INT(pf_choice_next(&ch, 1, NULL), want2[i]);
    pf_choice_free(&ch);
    /* n_hist_split fixes the cutoff: 3 collections go large, 1 small */
    pf_choice_init(&ch, 2, (int[]){2, 5}, 0, 2, NULL);
    CHECK_EQ_INT(pf_choice_next(&ch, 3, NULL), 1);
    CHECK_EQ_INT(pf_choice_next(&ch, 1, NULL), 0);
    pf_choice_free(&ch);
    /* one server: always it */
    pf_choice_init(&ch, 1, (int[]){4}, 0, 0, NULL);
    CHECK_EQ_INT(pf_choice_next(&ch, 1, NULL), 0);
    CHECK_EQ_INT(pf_choice_next(&ch, 7, NULL), 0);
    pf_choice_free(&ch);
}

static void test_profiler_format(void)
{
    /* the wiki's o_server_front block: the same numbers must give the same lines */
    pf_prow rows[8] = {
        {"o_server_front", 0, 0.357244, 0.053738, 0.881602, 0.013470, 0, 2},
        {"wait_message", 1, 0.047207, 0.047207, 0.052244, 0.040038, 11, 13},
        {"add_Histcollection", 1, 0.003346, 0.003346, 0.005641, 0.000294, 2, 7},
        {"receive_data", 1, 0.194778, 0.000496, 0.000696, 0.000367, 13, 19},
        {"collection_1", 2, 0.194282, 0.194282, 0.421234, 0.113870, 13, 21},
        {"forward_data", 1, 0.057849, 0.017939, 0.051281, 0.000058, 20, 18},
        {"collection_1", 2, 0.039910, 0.039910, 0.048129, 0.030721, 18, 19},
        {"clean up", 1, 0.000325, 0.000325, 0.000529, 0.000244, 9, 17},
    };
    char *text = pf_prof_format(rows, 8, PF_PROF_WIKI2021);
    const char *want =
        "Name                 Inclusive % Incl Exclusive % Excl Max Excl  Min Excl  Max PE Min PE\n"
        "o_server_front        0.357244 100.00  0.053738  15.04  0.881602  0.013470  0000   0002\n"
        "--wait_message        0.047207  13.21  0.047207  13.21  0.052244  0.040038  0011   0013\n"
        "--add_Histcollection  0.003346   0.94  0.003346   0.94  0.005641  0.000294  0002   0007\n"
        "--receive_data        0.194778  54.52  0.000496   0.14  0.000696  0.000367  0013   0019\n"
        "----collection_1      0.194282  54.38  0.194282  54.38  0.421234  0.113870  0013   0021\n"
        "--forward_data        0.057849  16.19  0.017939   5.02  0.051281  0.000058  0020   0018\n"
        "----collection_1      0.039910  11.17  0.039910  11.17  0.048129  0.030721  0018   0019\n"
        "--clean up            0.000325   0.09  0.000325   0.09  0.000529  0.000244  0009   0017\n";
    if (strcmp(text, want) != 0) {
        fprintf(stderr, "profiler report differs from the wiki's:\n%s\nexpected:\n%s", text, want);
        check_failures++;
    }
    cio_free(text);
    /* current MAPL (AbstractServer%report_profile): f10.2 in 10-wide columns,
     * whose headers show MAPL's stray ')' */
    text = pf_prof_format(rows, 8, PF_PROF_MAPL);
    want = "Name                 Inclusive  % Incl Exclusive  % Excl Max Excl)  Min Excl)  Max PE Min PE\n"
           "o_server_front             0.36 100.00       0.05  15.04       0.88       0.01  0000   0002\n"
           "--wait_message             0.05  13.21       0.05  13.21       0.05       0.04  0011   0013\n"
           "--add_Histcollection       0.00   0.94       0.00   0.94       0.01       0.00  0002   0007\n"
           "--receive_data             0.19  54.52       0.00   0.14       0.00       0.00  0013   0019\n"
           "----collection_1           0.19  54.38       0.19  54.38       0.42       0.11  0013   0021\n"
           "--forward_data             0.06  16.19       0.02   5.02       0.05       0.00  0020   0018\n"
           "----collection_1           0.04  11.17       0.04  11.17       0.05       0.03  0018   0019\n"
           "--clean up                 0.00   0.09       0.00   0.09       0.00       0.00  0009   0017\n";
    if (strcmp(text, want) != 0) {
        fprintf(stderr, "profiler report differs from current MAPL's:\n%s\nexpected:\n%s", text, want);
        check_failures++;
    }
    CHECK(strcmp(pf_prof_title(PF_PROF_MAPL), "Final io_server profile") == 0);
    cio_free(text);

    /* the tree: exclusive = inclusive - children, reduced over one rank */
    pf_prof p;
    pf_prof_init(&p, "o_server_front", 1);
    pf_prof_start(&p, "receive_data");
    pf_prof_start(&p, "collection_1");
    pf_prof_stop(&p, "collection_1");
    pf_prof_stop(&p, "receive_data");
    pf_prof_start(&p, "receive_data");
    pf_prof_stop(&p, "receive_data");
    pf_prof_finish(&p);
    int n;
    pf_prow *r = pf_prof_reduce(&p, MPI_COMM_SELF, &n);
    CHECK_EQ_INT(n, 3);
    CHECK(strcmp(r[0].name, "o_server_front") == 0 && strcmp(r[2].name, "collection_1") == 0);
    CHECK_EQ_INT(r[2].depth, 2);
    CHECK(r[1].excl >= 0 && r[1].excl <= r[1].incl && r[0].incl >= r[1].incl);
    CHECK(pf_prof_get(&p, "o_server_front/receive_data/collection_1") == r[2].incl);
    cio_free(r);
    pf_prof q;
    pf_prof_init(&q, "x", 0);       /* disabled: nothing happens, nothing is reported */
    pf_prof_start(&q, "y");
    pf_prof_stop(&q, "y");
    CHECK_EQ_INT(q.n, 0);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    cio_set_progname("test_pfio_unit");
    test_demo_layout();
    test_multilayer_layout();
    test_isolation_formulas();
    test_refusals();
    test_decomposition();
    test_argv();
    test_wire();
    test_profiler_format();
    test_server_choice();
    opts_done();
    int rc = CHECK_DONE();
    MPI_Finalize();
    return rc;
}
