/* Unit tests of the parameter parser: good files, every kind of bad line, command
 * line overrides, and the original GCRM-IO zgrd.in grammar. */
/* sanitizers: yes */
#include "config.h"
#include "check.h"
#include "base/params.h"

#include <mpi.h>

static const cio_param_spec specs[] = {
    {"level_max", CIO_P_INT, "3", "grid level", 0, 1, 14, CIO_PF_FIRST_WINS},
    {"end_hours", CIO_P_INT, "0", "hours", 0, 0, 1e6, 0},
    {"ratio", CIO_P_DOUBLE, "1.5", "a ratio", 0, 0, 0, 0},
    {"iotype", CIO_P_CHOICE, "nonblocking_collective", "mode",
     "nonblocking_collective|blocking_collective", 0, 0, 0},
    {"physics", CIO_P_BOOL, "true", "physics", 0, 0, 0, 0},
    {"output_path", CIO_P_STRING, "./", "where", 0, 0, 0, 0},
    {"buffer", CIO_P_SIZE, "16m", "buffer", 0, 0, 0, 0},
    {"io_procs", CIO_P_INT, "0", "ignored by the benchmark", 0, 0, 0, CIO_PF_IGNORED},
    {"dry_run", CIO_P_BOOL, "false", "cmdline only", 0, 0, 0, CIO_PF_CMDLINE},
    CIO_PARAM_END,
};
static const cio_param_spec *tables[] = {specs, NULL};

/* Parse text; return the error message (static) or NULL on success. */
static const char *parse(const char *text, cio_params **out)
{
    static cio_err e;
    memset(&e, 0, sizeof e);
    cio_params *p = cio_params_new(tables);
    int rc = cio_params_parse_text(p, text, strlen(text), "t.in", &e);
    if (out) *out = p;
    else cio_params_free(p);
    return rc ? e.msg : NULL;
}

static void good_files(void)
{
    cio_params *p;
    CHECK(parse("! comment\n# another\n\nlevel_max 5\nend_hours=2 ! trailing\n"
                "output_path \"/tmp/with space/\"  # note\nratio 2.25\niotype BLOCKING_COLLECTIVE\n"
                "physics disabled\nbuffer 4k\r\n", &p) == NULL);
    CHECK_EQ_INT(cio_param_int(p, "level_max"), 5);
    CHECK_EQ_INT(cio_param_int(p, "end_hours"), 2);
    CHECK(strcmp(cio_param_str(p, "output_path"), "/tmp/with space/") == 0);
    CHECK(cio_param_double(p, "ratio") == 2.25);
    CHECK(strcmp(cio_param_str(p, "iotype"), "blocking_collective") == 0);
    CHECK_EQ_INT(cio_param_bool(p, "physics"), 0);
    CHECK_EQ_INT(cio_param_int(p, "buffer"), 4096);
    CHECK(cio_param_isset(p, "level_max"));
    CHECK(!cio_param_isset(p, "ratio") == 0);
    CHECK_CONTAINS(cio_param_origin(p, "end_hours"), "t.in:5");
    CHECK(strcmp(cio_param_origin(p, "io_procs"), "default") == 0);
    cio_params_free(p);

    /* key = value with blanks, and keys are case-insensitive */
    CHECK(parse("LEVEL_MAX = 4\n", &p) == NULL);
    CHECK_EQ_INT(cio_param_int(p, "level_max"), 4);
    cio_params_free(p);

    /* defaults stay when not given; an ignored key is accepted */
    CHECK(parse("io_procs 4\n", &p) == NULL);
    CHECK_EQ_INT(cio_param_int(p, "level_max"), 3);
    CHECK_EQ_INT(cio_param_int(p, "buffer"), 16 << 20);
    cio_params_free(p);

    /* the original's duplicated key with the same value is accepted */
    CHECK(parse("end_hours 0\nend_hours 0\n", NULL) == NULL);
    /* level_max: the first occurrence wins, as in the original */
    CHECK(parse("level_max 5\nlevel_max 6\n", &p) == NULL);
    CHECK_EQ_INT(cio_param_int(p, "level_max"), 5);
    cio_params_free(p);
    /* a file of comments only is fine */
    CHECK(parse("! nothing here\n", NULL) == NULL);
}

static void bad_files(void)
{
    CHECK_CONTAINS(parse("level_max five\n", NULL), "t.in:1: level_max expects an integer, found 'five'");
    CHECK_CONTAINS(parse("\n\nlevel_max 99\n", NULL), "t.in:3: level_max must be between 1 and 14, found 99");
    CHECK_CONTAINS(parse("levl_max 5\n", NULL), "t.in:1: unknown key 'levl_max' (did you mean 'level_max'?)");
    CHECK_CONTAINS(parse("zzzzzz 5\n", NULL), "unknown key 'zzzzzz' (run with --help");
    CHECK_CONTAINS(parse("end_hours\n", NULL), "t.in:1: key 'end_hours' has no value; expected an integer");
    CHECK_CONTAINS(parse("ratio 1.5x\n", NULL), "ratio expects a number, found '1.5x'");
    CHECK_CONTAINS(parse("iotype fast\n", NULL), "iotype expects one of nonblocking_collective|blocking_collective, found 'fast'");
    CHECK_CONTAINS(parse("physics maybe\n", NULL), "physics expects true or false, found 'maybe'");
    CHECK_CONTAINS(parse("buffer 12q\n", NULL), "buffer expects a size in bytes");
    CHECK_CONTAINS(parse("end_hours -3\n", NULL), "end_hours must be between 0 and 1e+06, found -3");
    CHECK_CONTAINS(parse("output_path \"/tmp\n", NULL), "t.in:1: value of output_path has no closing \" quote");
    CHECK_CONTAINS(parse("end_hours 1 2\n", NULL), "t.in:1: unexpected '2' after the value of end_hours");
    CHECK_CONTAINS(parse("end_hours 1\nend_hours 2\n", NULL),
                   "t.in:2: duplicate key 'end_hours' with a different value ('1' at line 1, now '2')");
    CHECK_CONTAINS(parse("=5\n", NULL), "t.in:1: expected a key name");
    CHECK_CONTAINS(parse("dry_run true\n", NULL), "dry_run is a command-line option");
    CHECK_CONTAINS(parse("", NULL), "t.in: file is empty");
    CHECK_CONTAINS(parse("level_max 3\n\x01\x02junk\n", NULL), "t.in:2: control character 0x01");
    /* a NUL byte inside the text */
    {
        cio_err e = {0};
        cio_params *p = cio_params_new(tables);
        const char bin[] = "level_max 3\n\0\0\0\n";
        CHECK(cio_params_parse_text(p, bin, sizeof bin - 1, "bin.in", &e) != 0);
        CHECK_CONTAINS(e.msg, "bin.in: contains NUL bytes");
        cio_params_free(p);
    }
    /* a very long line */
    {
        char *big = malloc(10000);
        memset(big, 'x', 9998);
        big[0] = 'k';
        big[9998] = '\n';
        big[9999] = '\0';
        CHECK_CONTAINS(parse(big, NULL), "t.in:1: line is 9998 characters long");
        free(big);
    }
}

static void command_line(void)
{
    cio_params *p = cio_params_new(tables);
    cio_err e = {0};
    char *argv[] = {"prog", "--level-max", "7", "--physics", "file.in", "--ratio=3", "--dry_run", NULL};
    int npos;
    char **pos;
    CHECK(cio_params_parse_argv(p, 7, argv, &npos, &pos, &e) == 0);
    CHECK_EQ_INT(npos, 1);
    CHECK(strcmp(pos[0], "file.in") == 0);
    /* the file sets level_max too; the command line wins whatever the order */
    const char *ftext = "level_max 4\nphysics false\n";
    CHECK(cio_params_parse_text(p, ftext, strlen(ftext), "f.in", &e) == 0);
    CHECK(cio_params_apply_cmdline(p, &e) == 0);
    CHECK_EQ_INT(cio_param_int(p, "level_max"), 7);
    CHECK_EQ_INT(cio_param_bool(p, "physics"), 1);
    CHECK(cio_param_double(p, "ratio") == 3);
    CHECK_EQ_INT(cio_param_bool(p, "dry_run"), 1);
    CHECK(strcmp(cio_param_origin(p, "level_max"), "command line") == 0);
    cio_free(pos);
    cio_params_free(p);

    p = cio_params_new(tables);
    memset(&e, 0, sizeof e);
    char *bad[] = {"prog", "--levelmax", "3", NULL};
    CHECK(cio_params_parse_argv(p, 3, bad, &npos, &pos, &e) != 0);
    CHECK_CONTAINS(e.msg, "unknown option '--levelmax' (did you mean '--level_max'?)");
    cio_free(pos);
    cio_params_free(p);

    p = cio_params_new(tables);
    memset(&e, 0, sizeof e);
    char *noval[] = {"prog", "--end_hours", NULL};
    CHECK(cio_params_parse_argv(p, 2, noval, &npos, &pos, &e) != 0);
    CHECK_CONTAINS(e.msg, "option --end_hours needs a value");
    cio_free(pos);
    cio_params_free(p);
}

static void unknown_allowed(void)
{
    cio_params *p = cio_params_new(tables);
    cio_err e = {0};
    cio_params_allow_unknown(p, 1);
    CHECK(cio_params_parse_text(p, "mystery 3\nlevel_max 4\n", 22, "u.in", &e) == 0);
    CHECK_EQ_INT(cio_param_int(p, "level_max"), 4);
    cio_params_free(p);
}

/* Lines from elsewhere than a file (mom_combine: a member's own attributes): their
 * origin as given, no line numbers, and they override what a file set. */
static void described(void)
{
    cio_params *p = NULL;
    cio_err e = {0};
    CHECK(parse("level_max 5\n", &p) == NULL);
    CHECK(cio_params_parse_described(p, "level_max 7\noutput_path \"a b\"\n", "m.nc (attrs)", &e) == 0);
    CHECK_EQ_INT(cio_param_int(p, "level_max"), 7);
    CHECK(strcmp(cio_param_origin(p, "level_max"), "m.nc (attrs)") == 0 && cio_param_isset(p, "level_max"));
    CHECK(strcmp(cio_param_str(p, "output_path"), "a b") == 0);
    CHECK(cio_params_parse_described(p, "level_max 99\n", "m.nc (attrs)", &e) != 0);
    CHECK_CONTAINS(e.msg, "m.nc (attrs): level_max must be between 1 and 14, found 99");
    memset(&e, 0, sizeof e);
    CHECK(cio_params_parse_described(p, "nosuch 1\n", "m.nc (attrs)", &e) != 0);
    CHECK_CONTAINS(e.msg, "m.nc (attrs): unknown key 'nosuch'");
    cio_params_free(p);
}

/* Who set a value: the table's default, the program's built-in parameter text,
 * or the user (a file, the command line, a file's attributes), each answered by
 * the parser, never by the origin's text. */
static void origin_kinds(void)
{
    cio_params *p = NULL;
    cio_err e = {0};
    CHECK(parse("level_max 5\n", &p) == NULL);
    CHECK_EQ_INT(cio_param_origin_kind(p, "level_max"), CIO_ORIGIN_USER);
    CHECK_EQ_INT(cio_param_origin_kind(p, "end_hours"), CIO_ORIGIN_DEFAULT);
    CHECK(cio_params_is_set(p, "level_max") && !cio_params_is_set(p, "end_hours") && !cio_params_from_builtin(p));
    cio_params_free(p);

    p = cio_params_new(tables);
    CHECK(cio_params_parse_builtin(p, "level_max 6\nratio 2\n", "<built-in t.in>", &e) == 0);
    CHECK(cio_params_from_builtin(p));
    CHECK_EQ_INT(cio_param_origin_kind(p, "level_max"), CIO_ORIGIN_BUILTIN);
    CHECK(cio_param_isset(p, "level_max") && !cio_params_is_set(p, "level_max"));
    CHECK_CONTAINS(cio_param_origin(p, "level_max"), "<built-in t.in>:1");
    CHECK_EQ_INT(cio_param_origin_kind(p, "end_hours"), CIO_ORIGIN_DEFAULT);
    CHECK(cio_params_set(p, "ratio", "3", "command line", &e) == 0);
    CHECK_EQ_INT(cio_param_origin_kind(p, "ratio"), CIO_ORIGIN_USER);
    CHECK(cio_params_parse_described(p, "end_hours 7\n", "m.nc (attrs)", &e) == 0);
    CHECK(cio_params_is_set(p, "end_hours"));
    cio_params_free(p);
    p = cio_params_new(tables);
    CHECK(cio_params_parse_builtin(p, "\nlevel_max 70\n", "<built-in t.in>", &e) != 0);
    CHECK_CONTAINS(e.msg, "<built-in t.in>:2: level_max must be between 1 and 14, found 70");
    cio_params_free(p);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    good_files();
    bad_files();
    command_line();
    unknown_allowed();
    described();
    origin_kinds();
    int rc = CHECK_DONE();
    MPI_Finalize();
    return rc;
}
