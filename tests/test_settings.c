/* Unit tests of the common settings' resolution (settings.c): each setting from
 * the parameters alone, from what a kernel asks, and its refusals. */
/* sanitizers: yes */
#include "config.h"
#include "check.h"
#include "app/app.h"
#include "app/settings.h"

#include <mpi.h>

static const cio_param_spec *tables[] = {cio_common_params, NULL};
static char folder_parse_error[1024];
#define CHECK_EQ_STR(a, b) CHECK(strcmp((a), (b)) == 0)

/* The store after parsing `text` (a parameter file "t.in") and the command line argv. */
static cio_params *parse(const char *text, char **argv)
{
    cio_err e = {0};
    int argc = 0, npos = 0;
    char **pos = NULL;
    while (argv && argv[argc]) argc++;
    if (!*text) text = "! nothing set in the file\n";
    cio_params *p = cio_params_new(tables);
    if (cio_params_parse_argv(p, argc, argv, &npos, &pos, &e) || cio_params_parse_text(p, text, strlen(text), "t.in", &e) ||
        cio_params_apply_cmdline(p, &e)) {
        fprintf(stderr, "parse: %s\n", e.msg);
        exit(1);
    }
    cio_free(pos);
    return p;
}

/* Drivers made up for the tests: what each can do is all resolution reads. */
static int fake_sync(cio_dfile *f)
{
    (void)f;
    return 0;
}
static int fake_sync_closed(cio_dfile *f, int *calls)
{
    (void)f;
    *calls = 1;
    return 0;
}
static const cio_driver blocking_only = {
    .name = "blockonly", .modes = CIO_MODES_BLOCKING,
    .formats = CIO_FMT_BIT(CIO_FMT_CDF1) | CIO_FMT_BIT(CIO_FMT_NC4), .default_format = CIO_FMT_NC4,
    .serial_api = 1, .sync = fake_sync, .sync_closed = fake_sync_closed, .stores_data = 1,
};
/* a closed file only (as ADIOS2, whose open engine has no sync call) */
static const cio_driver end_only = {.name = "endonly", .modes = CIO_MODES_ALL, .formats = CIO_FMT_BIT(CIO_FMT_BP),
                                    .default_format = CIO_FMT_BP, .sync_closed = fake_sync_closed, .stores_data = 1};
static const cio_driver no_sync = {.name = "nosync", .modes = CIO_MODES_ALL, .formats = CIO_FMT_BIT(CIO_FMT_RAW),
                                   .default_format = CIO_FMT_RAW};

static void driver(void)
{
    cio_kernel_asks k = {.kernel = "test_settings"};
    cio_settings s = {0};
    cio_err e = {0};
    cio_params *p = parse("", NULL);
    CHECK_EQ_INT(cio_settings_driver(p, &k, &s, &e), 0);
    CHECK(s.driver == cio_drivers[0]);
    CHECK(strcmp(s.driver_origin, "unset") == 0);
    cio_params_free(p);

    p = parse("driver nosuch\n", NULL);
    CHECK(cio_settings_driver(p, &k, &s, &e) != 0);
    CHECK_CONTAINS(e.msg, "t.in:1: driver 'nosuch' is not built into this test_settings; drivers built: ");
    cio_params_free(p);

    /* a kernel's driver: used when the user names none, or always when it says so */
    char *argv[] = {"test_settings", "--driver", "null", NULL};
    p = parse("", argv);
    k.driver = &blocking_only;
    k.driver_origin = "the kernel's";
    CHECK_EQ_INT(cio_settings_driver(p, &k, &s, &e), 0);
    CHECK(s.driver == cio_driver_find("null"));
    CHECK(strcmp(s.driver_origin, "command line") == 0);
    CHECK(!(s.changed & CIO_SET_DRIVER));
    k.driver_always = 1;
    CHECK_EQ_INT(cio_settings_driver(p, &k, &s, &e), 0);
    CHECK(s.driver == &blocking_only && strcmp(s.driver_origin, "the kernel's") == 0);
    char val[64];
    const char *origin = NULL;
    CHECK(cio_settings_shown(&s, "driver", val, sizeof val, &origin) && strcmp(val, "blockonly") == 0);
    cio_params_free(p);
}

static void iotype(void)
{
    cio_settings s = {.driver = &blocking_only};
    cio_err e = {0};
    char note[256];
    /* the kernel's default (nonblocking_collective), which the driver lacks: its blocking counterpart */
    cio_params *p = parse("", NULL);
    CHECK_EQ_INT(cio_settings_iotype(p, 0, &s, note, sizeof note, &e), 0);
    CHECK_EQ_INT(s.iotype, CIO_MODE_BLOCKING_COLLECTIVE);
    CHECK(s.iotype_adjusted && strcmp(s.iotype_origin, "adjusted for driver") == 0);
    CHECK_CONTAINS(note, "the blockonly driver has no nonblocking_collective mode (the kernel's default iotype)");
    /* chosen: refused, naming where it was chosen */
    CHECK(cio_settings_iotype(p, 1, &s, note, sizeof note, &e) != 0);
    CHECK_CONTAINS(e.msg, "default: the blockonly driver has no nonblocking_collective mode");
    cio_params_free(p);
    char *argv[] = {"test_settings", "--iotype", "nonblocking_independent", "--nc4_nonblocking_fallback", NULL};
    p = parse("", argv);
    CHECK_EQ_INT(cio_settings_iotype(p, 1, &s, note, sizeof note, &e), 0);
    CHECK_EQ_INT(s.iotype, CIO_MODE_NONBLOCKING_INDEPENDENT);
    CHECK_EQ_INT(s.mode, CIO_MODE_BLOCKING_INDEPENDENT);
    CHECK(s.mode_fallback && !s.iotype_adjusted && note[0] == '\0');
    cio_params_free(p);
}

static void format(void)
{
    cio_kernel_asks k = {.kernel_format = CIO_FMT_CDF2};
    cio_settings s = {.driver = &blocking_only};
    cio_err e = {0};
    cio_params *p = parse("", NULL);
    CHECK_EQ_INT(cio_settings_format(p, &k, &s, &e), 0);
    CHECK_EQ_INT(s.format, CIO_FMT_NC4);       /* the kernel's cdf2 is not the driver's: its own default */
    k.format = CIO_FMT_CDF1;
    k.format_origin = "the kernel's choice";
    CHECK_EQ_INT(cio_settings_format(p, &k, &s, &e), 0);
    CHECK(s.format == CIO_FMT_CDF1 && strcmp(s.format_origin, "the kernel's choice") == 0);
    k.format = CIO_FMT_RAW;
    CHECK(cio_settings_format(p, &k, &s, &e) != 0);
    CHECK_CONTAINS(e.msg, "the kernel's choice: the blockonly driver cannot write format raw; it writes: cdf1, nc4");
    cio_params_free(p);
    p = parse("format cdf1\n", NULL);
    CHECK_EQ_INT(cio_settings_format(p, &k, &s, &e), 0);      /* the user's format wins */
    CHECK(s.format == CIO_FMT_CDF1 && strcmp(s.format_origin, "t.in:1") == 0);
    cio_params_free(p);
}

static void header_chunking_serial_hints(void)
{
    cio_kernel_asks k = {.header_pad = 16384, .header_pad_origin = "FMS", .chunking = "default",
                         .chunking_origin = "FMS", .serial = 1, .size_hint_env = 1, .serial_origin = "serial",
                         .hints = "a=1", .hints_origin = "kernel hints"};
    cio_settings s = {.driver = &blocking_only};
    cio_err e = {0};
    char val[64];
    const char *origin;
    cio_params *p = parse("", NULL);
    CHECK_EQ_INT(cio_settings_header_pad(p, &k, &s, &e), 0);
    CHECK_EQ_INT(s.header_pad, 16384);
    CHECK(cio_settings_shown(&s, "header_pad", val, sizeof val, &origin) && strcmp(val, "16384") == 0);
    CHECK_EQ_INT(cio_settings_chunking(p, &k, &s, &e), 0);
    CHECK(strcmp(s.chunking, "default") == 0 && strcmp(s.chunking_origin, "FMS") == 0);
    k.size_hint = 65536;
    CHECK_EQ_INT(cio_settings_serial(p, &k, &s, &e), 0);
    CHECK(s.serial && s.size_hint_env && s.size_hint == 65536);
    CHECK(cio_settings_shown(&s, "size_hint", val, sizeof val, &origin) && strcmp(val, "65536") == 0 &&
          strcmp(origin, "serial") == 0);
    s.driver = &no_sync;                        /* no serial API: the driver keeps its own path */
    CHECK_EQ_INT(cio_settings_serial(p, &k, &s, &e), 0);
    CHECK(!s.serial && !s.size_hint_env && !s.size_hint);
    CHECK_EQ_INT(cio_settings_hints(p, &k, &s, &e), 0);
    CHECK(strcmp(s.hints, "a=1") == 0 && strcmp(s.hints_origin, "kernel hints") == 0);
    cio_params_free(p);
    char *argv[] = {"test_settings", "--header_pad", "1k", "--chunking", "8,x", "--hints", "b=2", NULL};
    p = parse("", argv);
    s.changed = 0;
    CHECK_EQ_INT(cio_settings_header_pad(p, &k, &s, &e), 0);
    CHECK_EQ_INT(s.header_pad, 1024);
    CHECK(!cio_settings_shown(&s, "header_pad", val, sizeof val, &origin));
    CHECK(cio_settings_chunking(p, &k, &s, &e) != 0);
    CHECK_CONTAINS(e.msg, "command line: ");
    CHECK_EQ_INT(cio_settings_hints(p, &k, &s, &e), 0);     /* the kernel's first, the user's win */
    CHECK(strcmp(s.hints, "a=1;b=2") == 0 && strcmp(s.hints_origin, "command line") == 0);
    cio_settings_free(&s);
    cio_params_free(p);
}

static void fsync_verify_repetitions(void)
{
    cio_settings s = {.driver = &no_sync};
    cio_err e = {0};
    char *argv[] = {"test_settings", "--fsync", "end", "--verify_only", NULL};
    cio_params *p = parse("repetitions 3\n", argv);
    CHECK(cio_settings_fsync(p, &s, &e) != 0);
    CHECK_CONTAINS(e.msg, "command line: fsync end: the nosync driver has no call that makes a closed file durable");
    s.driver = &blocking_only;
    CHECK_EQ_INT(cio_settings_fsync(p, &s, &e), 0);
    CHECK_EQ_INT(s.fsync, CIO_FSYNC_END);
    s.driver = &end_only;
    CHECK_EQ_INT(cio_settings_fsync(p, &s, &e), 0);
    CHECK_EQ_INT(s.fsync, CIO_FSYNC_END);
    CHECK_EQ_INT(cio_settings_verify(p, &s, &e), 0);
    CHECK(s.verify && s.verify_only && strcmp(s.verify_origin, "implied by --verify_only") == 0);
    CHECK_EQ_INT(cio_settings_repetitions(p, &s, &e), 0);
    CHECK_EQ_INT(s.repetitions, 3);
    cio_params_free(p);
    /* true is close (the parser's alias): the open file's sync verb */
    char *argv1[] = {"test_settings", "--fsync", "true", NULL};
    p = parse("", argv1);
    memset(&e, 0, sizeof e);
    CHECK(cio_settings_fsync(p, &s, &e) != 0);
    CHECK_CONTAINS(e.msg, "command line: fsync close: the endonly driver has no call that makes an open file durable "
                          "(--fsync end syncs each file once after its last write)");
    s.driver = &blocking_only;
    CHECK_EQ_INT(cio_settings_fsync(p, &s, &e), 0);
    CHECK_EQ_INT(s.fsync, CIO_FSYNC_CLOSE);
    cio_params_free(p);
    char *argv2[] = {"test_settings", "--verify_only", "--verify", "false", NULL};
    p = parse("", argv2);
    CHECK_EQ_INT(cio_settings_verify(p, &s, &e), 0);
    CHECK(!s.verify && s.verify_only);
    /* a driver that stores nothing has no files to check */
    s.driver = &no_sync;
    memset(&e, 0, sizeof e);
    CHECK(cio_settings_verify(p, &s, &e) != 0);
    CHECK_CONTAINS(e.msg, "command line: verify_only checks the files an earlier run wrote, and the nosync driver "
                          "stores none");
    cio_params_free(p);
}

/* The output folder: a kernel's default and other name, its environment
 * override (not over the command line), '' refused or standing for a folder. */
static cio_params *parse_folder(const cio_output_folder *f, const char *text, char **argv)
{
    static cio_param_spec rows[3];
    const cio_param_spec *t[] = {cio_common_params, rows, NULL};
    cio_output_folder_rows(f, rows);
    cio_err e = {0};
    int argc = 0, npos = 0;
    char **pos = NULL;
    while (argv && argv[argc]) argc++;
    cio_params *p = cio_params_new(t);
    int rc = cio_params_parse_argv(p, argc, argv, &npos, &pos, &e) ||
             cio_params_parse_text(p, text, strlen(text), "t.in", &e) || cio_params_apply_cmdline(p, &e);
    cio_free(pos);
    if (rc) {
        snprintf(folder_parse_error, sizeof folder_parse_error, "%s", e.msg);
        cio_params_free(p);
        return NULL;
    }
    return p;
}

static void output_folder(void)
{
    const cio_output_folder plain = {.def = "out", .alias = "out"};
    const cio_output_folder gcrm = {.def = "./", .alias = "cdf_output_path", .env = "CIO_TEST_OUTPUT_PATH",
                                    .empty_means = "./"};
    const cio_output_folder unnamed = {.def = "out"};
    const char *dir = NULL;
    char origin[256];
    cio_err e = {0};
    cio_param_spec rows[3];
    cio_output_folder_rows(&gcrm, rows);
    CHECK_EQ_STR(rows[0].key, "output_dir");
    CHECK_EQ_STR(rows[0].def, "./");
    CHECK_EQ_STR(rows[1].key, "cdf_output_path");
    CHECK(rows[1].type == CIO_P_ALIAS && strcmp(rows[1].def, "output_dir") == 0);
    CHECK(rows[2].key == NULL);
    cio_output_folder_rows(&unnamed, rows);
    CHECK(rows[1].key == NULL);

    cio_params *p = parse_folder(&plain, "! nothing\n", NULL);
    CHECK_EQ_INT(cio_output_folder_resolve(p, &plain, &dir, origin, sizeof origin, &e), 0);
    CHECK_EQ_STR(dir, "out");
    CHECK_EQ_STR(origin, "default");
    cio_params_free(p);

    p = parse_folder(&plain, "! the folder's other name\nout /tmp/a\n", NULL);
    CHECK_EQ_INT(cio_output_folder_resolve(p, &plain, &dir, origin, sizeof origin, &e), 0);
    CHECK_EQ_STR(dir, "/tmp/a");
    CHECK_EQ_STR(origin, "t.in:2");
    cio_params_free(p);
    /* another kernel's name for it is no name of this one's */
    CHECK(parse_folder(&plain, "cdf_output_path /tmp/a\n", NULL) == NULL);
    CHECK_CONTAINS(folder_parse_error, "cdf_output_path");
    CHECK(parse_folder(&unnamed, "out /tmp/a\n", NULL) == NULL);
    CHECK_CONTAINS(folder_parse_error, "t.in:1");

    CHECK(parse_folder(&plain, "output_dir ''\n", NULL) == NULL);
    CHECK_CONTAINS(folder_parse_error, "t.in:1");
    CHECK_CONTAINS(folder_parse_error, "output_dir");

    p = parse_folder(&gcrm, "cdf_output_path ''\n", NULL);
    CHECK(p != NULL);
    CHECK_EQ_INT(cio_output_folder_resolve(p, &gcrm, &dir, origin, sizeof origin, &e), 0);
    CHECK_EQ_STR(dir, "./");
    cio_params_free(p);

    setenv("CIO_TEST_OUTPUT_PATH", "/tmp/env", 1);
    p = parse_folder(&gcrm, "cdf_output_path /tmp/a\n", NULL);
    CHECK_EQ_INT(cio_output_folder_resolve(p, &gcrm, &dir, origin, sizeof origin, &e), 0);
    CHECK_EQ_STR(dir, "/tmp/env");
    CHECK_EQ_STR(origin, "environment CIO_TEST_OUTPUT_PATH");
    cio_params_free(p);
    char *cmd[] = {"test_settings", "--output_dir", "/tmp/cmd", NULL};
    p = parse_folder(&gcrm, "cdf_output_path /tmp/a\n", cmd);
    CHECK_EQ_INT(cio_output_folder_resolve(p, &gcrm, &dir, origin, sizeof origin, &e), 0);
    CHECK_EQ_STR(dir, "/tmp/cmd");
    CHECK_EQ_STR(origin, "command line");
    cio_params_free(p);
    unsetenv("CIO_TEST_OUTPUT_PATH");

    /* a program that reads a kernel's table without its descriptor: the default still holds */
    p = parse("! nothing\n", NULL);
    CHECK_EQ_INT(cio_output_folder_resolve(p, &plain, &dir, origin, sizeof origin, &e), 0);
    CHECK_EQ_STR(dir, "out");
    cio_params_free(p);
}

/* The store's errors for a typed key: the parser's, naming the file and line. */
static void parse_fails(const char *text, const char *msg)
{
    cio_err e = {0};
    cio_params *p = cio_params_new(tables);
    CHECK(cio_params_parse_text(p, text, strlen(text), "t.in", &e) != 0);
    CHECK_CONTAINS(e.msg, msg);
    cio_params_free(p);
}

static void nofill_deflate_shuffle(void)
{
    cio_kernel_asks k = {0};
    cio_settings s = {.driver = &blocking_only};
    cio_err e = {0};
    char val[64];
    const char *origin;
    cio_params *p = parse("", NULL);
    CHECK(cio_settings_nofill(p, &s, &e) == 0 && s.nofill == 1);
    CHECK(cio_settings_timing_window(p, &s, &e) == 0 && s.clock_stops_for_data == 1);
    CHECK(cio_settings_deflate(p, &k, &s, &e) == 0 && s.deflate == 0 && strcmp(s.deflate_origin, "default") == 0);
    CHECK(cio_settings_shuffle(p, &k, &s, &e) == 0 && s.shuffle == 0);
    /* what a kernel asks (mom_combine -n4 -z -d 3) applies where the user set nothing */
    k.deflate = 3;
    k.shuffle = 1;
    k.filters_origin = "mppnccombine option";
    CHECK(cio_settings_deflate(p, &k, &s, &e) == 0 && s.deflate == 3);
    CHECK(cio_settings_shuffle(p, &k, &s, &e) == 0 && s.shuffle == 1);
    CHECK(cio_settings_shown(&s, "deflate", val, sizeof val, &origin) && strcmp(val, "3") == 0 &&
          strcmp(origin, "mppnccombine option") == 0);
    CHECK(cio_settings_shown(&s, "shuffle", val, sizeof val, &origin) && strcmp(val, "true") == 0);
    cio_params_free(p);
    char *argv[] = {"test_settings", "--shuffle", "false", NULL};
    p = parse("nofill false\ndeflate 6\ntiming_window end_to_end_with_data\n", argv);
    s.changed = 0;
    CHECK(cio_settings_nofill(p, &s, &e) == 0 && s.nofill == 0);
    CHECK(cio_settings_timing_window(p, &s, &e) == 0 && s.clock_stops_for_data == 0);
    CHECK(cio_settings_deflate(p, &k, &s, &e) == 0 && s.deflate == 6 && strcmp(s.deflate_origin, "t.in:2") == 0);
    CHECK(cio_settings_shuffle(p, &k, &s, &e) == 0 && s.shuffle == 0 && strcmp(s.shuffle_origin, "command line") == 0);
    CHECK(!cio_settings_shown(&s, "deflate", val, sizeof val, &origin));
    cio_params_free(p);
    parse_fails("nofill maybe\n", "t.in:1: nofill expects true or false, found 'maybe'");
    parse_fails("deflate 10\n", "t.in:1: deflate must be between 0 and 9, found 10");
    parse_fails("shuffle 2\n", "t.in:1: shuffle expects true or false, found '2'");
    parse_fails("timing_window wall\n", "t.in:1: timing_window");
}

static void storage_request_data(void)
{
    cio_settings s = {0};
    cio_err e = {0};
    cio_params *p = parse("", NULL);
    CHECK(cio_settings_storage_report(p, &s, &e) == 0 && s.storage_report == 0);
    CHECK(cio_settings_max_request_size(p, &s, &e) == 0 && s.max_request == CIO_MAX_REQUEST_DEFAULT_NUM);
    CHECK(cio_settings_data(p, &s, &e) == 0 && s.data == CIO_DATA_PATTERN);
    cio_params_free(p);
    p = parse("storage_report true\nmax_request_size 4m\ndata model\n", NULL);
    CHECK(cio_settings_storage_report(p, &s, &e) == 0 && s.storage_report == 1);
    CHECK(cio_settings_max_request_size(p, &s, &e) == 0 && s.max_request == 4 * 1048576);
    CHECK(cio_settings_data(p, &s, &e) == 0 && s.data == CIO_DATA_MODEL);
    cio_params_free(p);
    parse_fails("storage_report sometimes\n", "t.in:1: storage_report expects true or false, found 'sometimes'");
    parse_fails("max_request_size 10\n", "t.in:1: max_request_size must be between 64 and");
    parse_fails("max_request_size 4q\n", "t.in:1: max_request_size expects a size in bytes");
    parse_fails("data noise\n", "t.in:1: data expects one of pattern|model, found 'noise'");
}

static void aggregation(void)
{
    cio_settings s = {0};
    cio_err e = {0};
    cio_params *p = parse("", NULL);
    CHECK_EQ_INT(cio_settings_aggregation(p, 8, &s, &e), 0);
    CHECK(s.agg.io_tasks == 0 && s.agg.rearranger == CIO_REARR_BOX && s.agg.blocksize == 1048576 &&
          s.agg.buffer_limit == 128 * 1048576);
    cio_params_free(p);
    char *argv[] = {"test_settings", "--io_tasks", "4", "--io_stride", "2", "--rearranger", "subset", NULL};
    p = parse("io_base 1\nmax_pend_req 3\n", argv);
    CHECK_EQ_INT(cio_settings_aggregation(p, 8, &s, &e), 0);
    CHECK(s.agg.io_tasks == 4 && s.agg.io_stride == 2 && s.agg.io_base == 1 && s.agg.max_pend_req == 3 &&
          s.agg.rearranger == CIO_REARR_SUBSET);
    cio_params_free(p);
    /* pio_box with io_tasks all: every rank an I/O task */
    p = parse("rearranger pio_box\n", NULL);
    CHECK_EQ_INT(cio_settings_aggregation(p, 8, &s, &e), 0);
    CHECK(s.agg.io_tasks == 8 && s.agg.rearranger == CIO_REARR_PIOBOX);
    cio_params_free(p);
    p = parse("io_tasks none\n", NULL);
    CHECK(cio_settings_aggregation(p, 8, &s, &e) != 0);
    CHECK_CONTAINS(e.msg, "t.in:1: io_tasks expects a positive number of I/O tasks or 'all', found 'none'");
    cio_params_free(p);
    parse_fails("io_stride -1\n", "t.in:1: io_stride must be between 0 and");
    parse_fails("rearranger ring\n", "t.in:1: rearranger expects one of box|subset|pio_box, found 'ring'");
}

/* All of them in order, as cio_app_resolve_engine calls them. */
static void resolve_all(void)
{
    cio_kernel_asks k = {.kernel = "test_settings"};
    cio_settings s = {0};
    cio_err e = {0};
    char note[256];
    char *argv[] = {"test_settings", "--driver", "null", "--deflate", "2", NULL};
    cio_params *p = parse("io_tasks 2\n", argv);
    CHECK_EQ_INT(cio_settings_resolve(p, &k, 1, 4, &s, note, sizeof note, &e), 0);
    CHECK(s.driver == cio_driver_find("null") && s.deflate == 2 && s.agg.io_tasks == 2 && s.repetitions == 1);
    cio_settings_free(&s);
    cio_params_free(p);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    driver();
    iotype();
    format();
    header_chunking_serial_hints();
    fsync_verify_repetitions();
    nofill_deflate_shuffle();
    storage_request_data();
    aggregation();
    resolve_all();
    output_folder();
    int rc = CHECK_DONE();
    MPI_Finalize();
    return rc;
}
