#include "config.h"
#include "app/context.h"
#include "app/buildinfo.h"
#include "base/hostlist.h"
#include "base/util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* ---------------------------------------------------------------- file system */
/* The magics of linux/magic.h and the file systems HPC sites run, with the names
 * coreutils' `stat -f -c %T` prints for them. */
static const struct { unsigned long magic; const char *name; } fs_magics[] = {
    {0xEF53, "ext2/ext3"},      {0x58465342, "xfs"},       {0x01021994, "tmpfs"},   {0x858458F6, "ramfs"},
    {0x6969, "nfs"},            {0x0BD00BD0, "lustre"},    {0x47504653, "gpfs"},    {0x9123683E, "btrfs"},
    {0x2FC12FC1, "zfs"},        {0x794C7630, "overlayfs"}, {0x19830326, "fhgfs"},   {0x00C36400, "ceph"},
    {0x65735546, "fuseblk"},    {0xAAD7AAEA, "panfs"},     {0xFE534D42, "smb2"},    {0xFF534D42, "cifs"},
    {0xF2F52010, "f2fs"},       {0x73717368, "squashfs"},  {0x5346544E, "ntfs"},    {0x4D44, "msdos"},
    {0x01161970, "gfs/gfs2"},   {0x7461636F, "ocfs2"},     {0x13661366, "isofs"},   {0x9FA0, "proc"},
    {0x62656572, "sysfs"},
};

const char *cio_fs_magic_name(unsigned long magic)
{
    for (size_t i = 0; i < sizeof fs_magics / sizeof *fs_magics; i++)
        if (fs_magics[i].magic == magic) return fs_magics[i].name;
    return NULL;
}

/* mountinfo escapes blanks and backslashes as \ooo */
static void unescape(char *s)
{
    char *o = s;
    for (char *p = s; *p; p++) {
        if (p[0] == '\\' && p[1] >= '0' && p[1] <= '7' && p[2] >= '0' && p[2] <= '7' && p[3] >= '0' && p[3] <= '7') {
            *o++ = (char)((p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0'));
            p += 3;
        } else {
            *o++ = *p;
        }
    }
    *o = '\0';
}

/* Does mount point m contain path p (component-wise)? */
static size_t mount_prefix(const char *m, const char *p)
{
    size_t n = strlen(m);
    if (strcmp(m, "/") == 0) return 1;
    if (strncmp(m, p, n) != 0 || (p[n] != '/' && p[n] != '\0')) return 0;
    return n;
}

/* The mount holding `real`: the longest mount point containing it, preferring
 * entries of the folder's own device; the last entry wins ties (mounts over). */
static void find_mount(cio_fsinfo *fs, const char *real, dev_t dev)
{
    FILE *f = fopen("/proc/self/mountinfo", "r");
    if (!f) return;
    char line[4096];
    size_t best = 0;
    int best_dev = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned maj = 0, min = 0;
        char mnt[1024];
        if (sscanf(line, "%*s %*s %u:%u %*s %1023s", &maj, &min, mnt) != 3) continue;
        char *sep = strstr(line, " - ");
        if (!sep) continue;
        char type[64] = "", src[256] = "";
        if (sscanf(sep + 3, "%63s %255s", type, src) < 1) continue;
        unescape(mnt);
        unescape(src);
        size_t n = mount_prefix(mnt, real);
        if (!n) continue;
        int same_dev = major(dev) == maj && minor(dev) == min;
        if (same_dev < best_dev || (same_dev == best_dev && n < best)) continue;
        best = n;
        best_dev = same_dev;
        snprintf(fs->mount_point, sizeof fs->mount_point, "%s", mnt);
        snprintf(fs->type, sizeof fs->type, "%s", type);
        snprintf(fs->source, sizeof fs->source, "%s", src);
    }
    fclose(f);
}

/* One number from `lfs getstripe OPTION FILE`, -1 when it gives none. */
static int64_t lfs_value(const char *opt, const char *path)
{
    if (strchr(path, '\'')) return -1;
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "lfs getstripe %s '%s' 2>/dev/null", opt, path);
    FILE *p = popen(cmd, "r");
    if (!p) return -1;
    long long v = -1;
    if (fscanf(p, "%lld", &v) != 1) v = -1;
    pclose(p);
    return v;
}

static int have_lfs(void)
{
    const char *path = getenv("PATH");
    if (!path) return 0;
    char *copy = cio_strdup(path), *save = NULL;
    int found = 0;
    for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
        char f[PATH_MAX];
        snprintf(f, sizeof f, "%s/lfs", *d ? d : ".");
        found = access(f, X_OK) == 0;
    }
    cio_free(copy);
    return found;
}

static void examine_fs(cio_fsinfo *fs, const char *file)
{
    memset(fs, 0, sizeof *fs);
    fs->stripe_count = fs->stripe_size = -1;
    snprintf(fs->dir, sizeof fs->dir, "%s", file);
    char *slash = strrchr(fs->dir, '/');
    if (!slash) snprintf(fs->dir, sizeof fs->dir, ".");
    else if (slash == fs->dir) slash[1] = '\0';
    else *slash = '\0';
    struct statfs sf;
    struct stat st;
    char real[PATH_MAX];
    if (statfs(fs->dir, &sf) != 0 || stat(fs->dir, &st) != 0 || !realpath(fs->dir, real)) {
        snprintf(fs->why, sizeof fs->why, "cannot examine the output folder %.200s", fs->dir);
        return;
    }
    fs->known = 1;
    snprintf(fs->dir_absolute, sizeof fs->dir_absolute, "%.1000s", real);
    fs->magic = (unsigned long)sf.f_type;
    const char *name = cio_fs_magic_name(fs->magic);
    if (name) snprintf(fs->statfs_type, sizeof fs->statfs_type, "%s", name);
    else snprintf(fs->statfs_type, sizeof fs->statfs_type, "UNKNOWN (0x%lx)", fs->magic);
    fs->capacity = (int64_t)sf.f_blocks * (int64_t)sf.f_frsize;
    fs->avail = (int64_t)sf.f_bavail * (int64_t)sf.f_frsize;
    find_mount(fs, real, st.st_dev);
    if (!fs->type[0]) snprintf(fs->type, sizeof fs->type, "%s", fs->statfs_type);
    if (fs->magic == 0x0BD00BD0 && have_lfs()) {
        fs->stripe_count = lfs_value("-c", file);
        fs->stripe_size = lfs_value("-S", file);
    }
}

/* ---------------------------------------------------------------- MPI-IO component */
/* Open MPI loads both io components (ompio, romio) at the first open, but only
 * OMPIO loads its sub-frameworks (fs, fbtl, fcoll): after a file was opened,
 * their shared objects in this process mean OMPIO is the one in use.  MPICH and
 * its derivatives (Intel MPI, MVAPICH, Cray MPICH) have ROMIO only. */
static int io_component(const char *library, char *evidence, size_t len)
{
    evidence[0] = '\0';
    if (!strstr(library, "Open MPI")) {
        if (strstr(library, "MPICH") || strstr(library, "Intel") || strstr(library, "MVAPICH")) {
            snprintf(evidence, len, "an MPICH-derived library: ROMIO is its only MPI-IO");
            return 1;
        }
        return 0;
    }
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return 0;
    char line[4096], fsmods[128] = "";
    int ompio_parts = 0, romio = 0;
    while (fgets(line, sizeof line, f)) {
        char *so = strstr(line, "mca_");
        if (!so) continue;
        if (strncmp(so, "mca_io_romio", 12) == 0) romio = 1;
        if (strncmp(so, "mca_fbtl_", 9) == 0 || strncmp(so, "mca_fcoll_", 10) == 0) ompio_parts = 1;
        if (strncmp(so, "mca_fs_", 7) == 0) {
            ompio_parts = 1;
            char name[32];
            if (sscanf(so + 7, "%31[a-z0-9_]", name) == 1 && !strstr(fsmods, name) &&
                strlen(fsmods) + strlen(name) + 2 < sizeof fsmods) {
                strcat(fsmods, *fsmods ? "," : "");
                strcat(fsmods, name);
            }
        }
    }
    fclose(f);
    const char *env = getenv("OMPI_MCA_io");
    char envs[96] = "";
    if (env && *env) snprintf(envs, sizeof envs, "; OMPI_MCA_io=%s", env);
    if (ompio_parts) {
        snprintf(evidence, len, "Open MPI io/ompio: its fs (%s), fbtl and fcoll components are loaded%s",
                 *fsmods ? fsmods : "?", envs);
        return 2;
    }
    if (romio) {
        snprintf(evidence, len, "Open MPI io/romio: mca_io_romio is loaded and no OMPIO component%s", envs);
        return 1;
    }
    return 0;
}

/* ---------------------------------------------------------------- helpers */
/* The lowest rank where have != 0, or -1 (collective). */
static int lowest_with(int have, int rank, MPI_Comm comm)
{
    int mine = have ? rank : INT_MAX, low;
    MPI_Allreduce(&mine, &low, 1, MPI_INT, MPI_MIN, comm);
    return low == INT_MAX ? -1 : low;
}

static void build_info(cio_context *c)
{
    if (strcmp(cio_build_version, PACKAGE_VERSION) == 0)
        snprintf(c->version, sizeof c->version, "%s", PACKAGE_VERSION);
    else
        snprintf(c->version, sizeof c->version, "%s (%s)", PACKAGE_VERSION, cio_build_version);
    snprintf(c->version_origin, sizeof c->version_origin, "%s", cio_build_version_origin);
#if defined(__clang__)
    const char *cname = "clang";
#elif defined(__INTEL_COMPILER) || defined(__INTEL_LLVM_COMPILER)
    const char *cname = "intel";
#elif defined(__GNUC__)
    const char *cname = "gcc";
#else
    const char *cname = "cc";
#endif
#ifdef __VERSION__
    snprintf(c->compiler, sizeof c->compiler, "%s (%s %s)", cio_build_cc, cname, __VERSION__);
#else
    snprintf(c->compiler, sizeof c->compiler, "%s (%s)", cio_build_cc, cname);
#endif
    snprintf(c->cflags, sizeof c->cflags, "%s", cio_build_cflags);
}

/* ---------------------------------------------------------------- gather */
static void gather_nodes(cio_context *c, MPI_Comm comm, int rank, int64_t bytes_stored)
{
    MPI_Comm node, leaders;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    int nrank, nsize;
    MPI_Comm_rank(node, &nrank);
    MPI_Comm_size(node, &nsize);
    MPI_Comm_split(comm, nrank == 0 ? 0 : MPI_UNDEFINED, rank, &leaders);
    int lead = nrank == 0, nodes = 0;
    MPI_Allreduce(&lead, &nodes, 1, MPI_INT, MPI_SUM, comm);
    c->nodes = nodes;
    MPI_Allreduce(&nsize, &c->rpn_min, 1, MPI_INT, MPI_MIN, comm);
    MPI_Allreduce(&nsize, &c->rpn_max, 1, MPI_INT, MPI_MAX, comm);

    char host[256] = "";
    gethostname(host, sizeof host - 1);
    /* the page-cache check: each node's bytes against its available memory */
    long long nb = 0, mine = bytes_stored;
    MPI_Allreduce(&mine, &nb, 1, MPI_LONG_LONG, MPI_SUM, node);
    int64_t avail = lead ? cio_mem_available() : -1;
    int fits = !lead || nb == 0 || (avail >= 0 && nb <= avail), all_fit;
    MPI_Allreduce(&fits, &all_fit, 1, MPI_INT, MPI_MIN, comm);
    int any = nb > 0 && lead, any_all;
    MPI_Allreduce(&any, &any_all, 1, MPI_INT, MPI_MAX, comm);
    c->fits_page_cache = all_fit && any_all;
    struct { double v; int r; } in = {lead ? (double)nb : -1.0, rank}, out;
    MPI_Allreduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm);
    long long fig[2] = {nb, avail};
    MPI_Bcast(fig, 2, MPI_LONG_LONG, out.r, comm);
    c->node_bytes_max = fig[0];
    c->node_mem_available = fig[1];
    char h[256];
    memcpy(h, host, sizeof h);
    MPI_Bcast(h, sizeof h, MPI_CHAR, out.r, comm);
    snprintf(c->node_host, sizeof c->node_host, "%s", h);

    /* host names: one per node, gathered by the node leaders only */
    if (leaders != MPI_COMM_NULL) {
        int lr, ln;
        MPI_Comm_rank(leaders, &lr);
        MPI_Comm_size(leaders, &ln);
        char *all = lr == 0 ? cio_malloc((size_t)ln * sizeof host) : NULL;
        MPI_Gather(host, sizeof host, MPI_CHAR, all, sizeof host, MPI_CHAR, 0, leaders);
        if (lr == 0) {
            const char **names = cio_malloc((size_t)ln * sizeof *names);
            for (int i = 0; i < ln; i++) {
                all[(size_t)i * sizeof host + sizeof host - 1] = '\0';
                names[i] = all + (size_t)i * sizeof host;
            }
            cio_hostlist_compress(names, ln, c->hosts, sizeof c->hosts);
            cio_free(names);
            cio_free(all);
        }
        MPI_Comm_free(&leaders);
    }
    MPI_Comm_free(&node);
}

void cio_context_gather(cio_context *c, MPI_Comm comm, const char *first_path, int64_t bytes_stored)
{
    memset(c, 0, sizeof *c);
    int rank;
    MPI_Comm_rank(comm, &rank);
    build_info(c);
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(lib, &len);
    /* its first line, cut to the field: MPICH's whole string can be 8 KiB */
    size_t n = strcspn(lib, "\n");
    if (n >= sizeof c->mpi_library) n = sizeof c->mpi_library - 1;
    memcpy(c->mpi_library, lib, n);
    c->mpi_library[n] = '\0';

    /* the file system, examined where the first file was written */
    int owner = lowest_with(first_path != NULL, rank, comm);
    if (owner < 0) {
        c->fs.stripe_count = c->fs.stripe_size = -1;
        snprintf(c->fs.why, sizeof c->fs.why, "no file was written");
    } else {
        if (rank == owner) examine_fs(&c->fs, first_path);
        MPI_Bcast(&c->fs, (int)sizeof c->fs, MPI_BYTE, owner, comm);
    }

    char ev[256];
    int code = io_component(c->mpi_library, ev, sizeof ev);
    struct { int v; int r; } in = {code, rank}, out;
    MPI_Allreduce(&in, &out, 1, MPI_2INT, MPI_MAXLOC, comm);
    MPI_Bcast(ev, sizeof ev, MPI_CHAR, out.r, comm);
    snprintf(c->mpi_io, sizeof c->mpi_io, "%s", out.v == 2 ? "OMPIO" : out.v == 1 ? "ROMIO" : "unknown");
    snprintf(c->mpi_io_evidence, sizeof c->mpi_io_evidence, "%s",
             out.v ? ev : "no MPI-IO component seen loaded (no file opened, or a static MPI)");

    gather_nodes(c, comm, rank, bytes_stored);
}

int cio_context_fs_in_memory(const cio_context *c)
{
    return c->fs.known && (c->fs.magic == 0x01021994 || c->fs.magic == 0x858458F6);
}

/* ---------------------------------------------------------------- reports */
static void human(char *buf, size_t len, double bytes)
{
    const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    while (bytes >= 1024 && u < 5) {
        bytes /= 1024;
        u++;
    }
    snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", bytes, unit[u]);
}

void cio_context_print(FILE *out, const cio_context *c)
{
    const cio_fsinfo *fs = &c->fs;
    fprintf(out, "run context\n");
    if (fs->known) {
        char cap[32], av[32];
        human(cap, sizeof cap, (double)fs->capacity);
        human(av, sizeof av, (double)fs->avail);
        fprintf(out, "  output folder  %s: %s (statfs %s), mounted on %s from %s; %s, %s free at the end\n", fs->dir,
                fs->type, fs->statfs_type, fs->mount_point, fs->source, cap, av);
        if (fs->stripe_count >= 0 || fs->stripe_size >= 0)
            fprintf(out, "  lustre         stripe count %lld, stripe size %lld (lfs getstripe on the first file)\n",
                    (long long)fs->stripe_count, (long long)fs->stripe_size);
    } else {
        fprintf(out, "  output folder  unknown: %s\n", fs->why);
    }
    fprintf(out, "  nodes          %d (%s), ranks per node %d", c->nodes, c->hosts, c->rpn_min);
    if (c->rpn_max != c->rpn_min) fprintf(out, "-%d", c->rpn_max);
    fprintf(out, "\n  MPI            %s; MPI-IO %s (%s)\n", c->mpi_library, c->mpi_io, c->mpi_io_evidence);
    fprintf(out, "  climio         %s [%s], %s, flags %s\n", c->version, c->version_origin, c->compiler, c->cflags);
}

void cio_context_json(cio_json *j, const cio_context *c)
{
    const cio_fsinfo *fs = &c->fs;
    cio_json_obj(j, "context");
    cio_json_obj(j, "file_system");
    cio_json_bool(j, "known", fs->known);
    if (fs->known) {
        cio_json_str(j, "folder", fs->dir);
        cio_json_str(j, "folder_absolute", fs->dir_absolute);
        cio_json_str(j, "type", fs->type);
        cio_json_str(j, "statfs_type", fs->statfs_type);
        char magic[24];
        snprintf(magic, sizeof magic, "0x%lx", fs->magic);
        cio_json_str(j, "statfs_magic", magic);
        cio_json_str(j, "mount_point", fs->mount_point);
        cio_json_str(j, "source", fs->source);
        cio_json_int(j, "capacity_bytes", fs->capacity);
        cio_json_int(j, "available_bytes", fs->avail);
        cio_json_bool(j, "in_memory", cio_context_fs_in_memory(c));
        if (fs->stripe_count >= 0) cio_json_int(j, "lustre_stripe_count", fs->stripe_count);
        else cio_json_null(j, "lustre_stripe_count");
        if (fs->stripe_size >= 0) cio_json_int(j, "lustre_stripe_size", fs->stripe_size);
        else cio_json_null(j, "lustre_stripe_size");
    } else {
        cio_json_str(j, "why", fs->why);
    }
    cio_json_obj_end(j);
    cio_json_int(j, "nodes", c->nodes);
    cio_json_int(j, "ranks_per_node_min", c->rpn_min);
    cio_json_int(j, "ranks_per_node_max", c->rpn_max);
    cio_json_str(j, "hosts", c->hosts);
    cio_json_obj(j, "mpi");
    cio_json_str(j, "library", c->mpi_library);
    cio_json_str(j, "io_component", c->mpi_io);
    cio_json_str(j, "io_component_evidence", c->mpi_io_evidence);
    cio_json_obj_end(j);
    cio_json_obj(j, "build");
    cio_json_str(j, "version", c->version);
    cio_json_str(j, "version_origin", c->version_origin);
    cio_json_str(j, "commit", cio_build_commit);
    cio_json_str(j, "compiler", c->compiler);
    cio_json_str(j, "cflags", c->cflags);
    cio_json_obj_end(j);
    cio_json_obj(j, "page_cache");
    cio_json_int(j, "node_bytes_max", c->node_bytes_max);
    if (c->node_mem_available >= 0) cio_json_int(j, "node_mem_available_bytes", c->node_mem_available);
    else cio_json_null(j, "node_mem_available_bytes");
    cio_json_str(j, "node", c->node_host);
    cio_json_bool(j, "fits", c->fits_page_cache);
    cio_json_obj_end(j);
    cio_json_obj_end(j);
}
