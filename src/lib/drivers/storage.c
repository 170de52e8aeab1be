/* Gathering and reporting the storage figures (storage.h). */
#include "config.h"
#include "drivers/storage.h"
#include "base/util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void cio_storage_free(cio_storage *s)
{
    for (int i = 0; i < s->nfiles; i++) {
        cio_storage_file *f = &s->files[i];
        for (int v = 0; v < f->nvars; v++) cio_free(f->vars[v].name);
        cio_free(f->vars);
        cio_free(f->path);
        cio_free(f->error);
    }
    cio_free(s->files);
    memset(s, 0, sizeof *s);
}

/* ---------------------------------------------------------------- gather */
/* One line per file ("F\tpath\tfile_bytes\terror") and per variable ("V\tname\tdata\tstored\tuncoded"). */
static void append(char **buf, size_t *len, size_t *cap, const char *line)
{
    size_t n = strlen(line);
    while (*len + n + 1 > *cap) {
        *cap = *cap ? 2 * *cap : 4096;
        *buf = cio_realloc(*buf, *cap);
    }
    memcpy(*buf + *len, line, n + 1);
    *len += n;
}

static void add_file(cio_storage *s, const char *path, int64_t fb, const char *err)
{
    s->files = cio_realloc(s->files, (size_t)(s->nfiles + 1) * sizeof *s->files);
    cio_storage_file *f = &s->files[s->nfiles++];
    memset(f, 0, sizeof *f);
    f->path = cio_strdup(path);
    f->file_bytes = fb;
    if (err && *err) f->error = cio_strdup(err);
}

static void add_var(cio_storage_file *f, const char *name, int64_t data, int64_t stored, int64_t uncoded)
{
    f->vars = cio_realloc(f->vars, (size_t)(f->nvars + 1) * sizeof *f->vars);
    f->vars[f->nvars].name = cio_strdup(name);
    f->vars[f->nvars].data = data;
    f->vars[f->nvars].uncoded = uncoded;
    f->vars[f->nvars++].stored = stored;
    f->data += data;
    f->stored += stored;
}

void cio_storage_gather(cio_storage *mine, MPI_Comm comm, cio_storage *all)
{
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    memset(all, 0, sizeof *all);
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (int i = 0; i < mine->nfiles; i++) {
        const cio_storage_file *f = &mine->files[i];
        char line[1200];
        snprintf(line, sizeof line, "F\t%s\t%lld\t%s\n", f->path, (long long)f->file_bytes, f->error ? f->error : "");
        append(&buf, &len, &cap, line);
        for (int v = 0; v < f->nvars; v++) {
            snprintf(line, sizeof line, "V\t%s\t%lld\t%lld\t%lld\n", f->vars[v].name, (long long)f->vars[v].data,
                     (long long)f->vars[v].stored, (long long)f->vars[v].uncoded);
            append(&buf, &len, &cap, line);
        }
    }
    cio_storage_free(mine);
    int mylen = (int)len, *lens = NULL, *displs = NULL, total = 0;
    if (rank == 0) {
        lens = cio_calloc((size_t)n, sizeof *lens);
        displs = cio_calloc((size_t)n, sizeof *displs);
    }
    MPI_Gather(&mylen, 1, MPI_INT, lens, 1, MPI_INT, 0, comm);
    char *recv = NULL;
    if (rank == 0) {
        for (int r = 0; r < n; r++) {
            displs[r] = total;
            total += lens[r];
        }
        recv = cio_malloc((size_t)total + 1);
    }
    MPI_Gatherv(buf ? buf : "", mylen, MPI_CHAR, recv, lens, displs, MPI_CHAR, 0, comm);
    cio_free(buf);
    if (rank == 0) {
        recv[total] = '\0';
        cio_storage_file *cur = NULL;
        for (char *line = recv, *next; line && *line; line = next) {
            next = strchr(line, '\n');
            if (next) *next++ = '\0';
            char *f1 = strchr(line, '\t');
            if (!f1) continue;
            *f1++ = '\0';
            char *f2 = strchr(f1, '\t'), *f3 = f2 ? strchr(f2 + 1, '\t') : NULL;
            if (!f2 || !f3) continue;
            *f2++ = '\0';
            *f3++ = '\0';
            if (strcmp(line, "F") == 0) {
                add_file(all, f1, strtoll(f2, NULL, 10), f3);
                cur = &all->files[all->nfiles - 1];
            } else if (strcmp(line, "V") == 0 && cur) {
                char *f4 = strchr(f3, '\t');
                if (f4) *f4++ = '\0';
                add_var(cur, f1, strtoll(f2, NULL, 10), strtoll(f3, NULL, 10), f4 ? strtoll(f4, NULL, 10) : 0);
            }
        }
    }
    cio_free(recv);
    cio_free(lens);
    cio_free(displs);
}

int cio_storage_first_uncoded(const cio_storage *s, const cio_storage_file **f, const cio_storage_var **v)
{
    for (int i = 0; i < s->nfiles; i++)
        for (int k = 0; k < s->files[i].nvars; k++)
            if (s->files[i].vars[k].uncoded > 0) {
                *f = &s->files[i];
                *v = &s->files[i].vars[k];
                return 1;
            }
    return 0;
}

/* ---------------------------------------------------------------- reports */
static double ratio(int64_t a, int64_t b) { return b > 0 ? (double)a / (double)b : 0.0; }

/* A ratio, or null when nothing was measured (no netCDF-4/HDF5 file: a classic
 * file's storage is not known, and 0 would read as a figure). */
static void json_ratio(cio_json *j, const char *key, int64_t a, int64_t b)
{
    if (b > 0) cio_json_num(j, key, ratio(a, b));
    else cio_json_null(j, key);
}

static void totals(const cio_storage *s, int64_t *data, int64_t *stored, int64_t *file)
{
    *data = *stored = *file = 0;
    for (int i = 0; i < s->nfiles; i++) {
        if (s->files[i].error) continue;
        *data += s->files[i].data;
        *stored += s->files[i].stored;
        *file += s->files[i].file_bytes;
    }
}

void cio_storage_print(FILE *out, const cio_storage *s)
{
    int64_t data, stored, file;
    totals(s, &data, &stored, &file);
    fprintf(out, "---- storage: data bytes, bytes on disk (HDF5 allocation), ratio = data / disk ----\n");
    for (int i = 0; i < s->nfiles; i++) {
        const cio_storage_file *f = &s->files[i];
        if (f->error) {
            fprintf(out, "file %s: %lld bytes; %s\n", f->path, (long long)f->file_bytes, f->error);
            continue;
        }
        fprintf(out, "file %s: data %lld, on disk %lld, ratio %.2f; file %lld bytes (with metadata), data / file %.2f\n",
                f->path, (long long)f->data, (long long)f->stored, ratio(f->data, f->stored), (long long)f->file_bytes,
                ratio(f->data, f->file_bytes));
        for (int v = 0; v < f->nvars; v++)
            fprintf(out, "  %-24s %14lld %14lld %8.2f\n", f->vars[v].name, (long long)f->vars[v].data,
                    (long long)f->vars[v].stored, ratio(f->vars[v].data, f->vars[v].stored));
    }
    if (stored == 0) {
        fprintf(out, "storage total: %d files, none of them netCDF-4/HDF5: no storage measured\n", s->nfiles);
        return;
    }
    fprintf(out, "storage total: %d files, data %lld, on disk %lld, ratio %.2f; files %lld bytes, data / files %.2f\n",
            s->nfiles, (long long)data, (long long)stored, ratio(data, stored), (long long)file, ratio(data, file));
}

void cio_storage_json(cio_json *j, const cio_storage *s)
{
    int64_t data, stored, file;
    totals(s, &data, &stored, &file);
    cio_json_obj(j, "storage");
    cio_json_int(j, "data_bytes", data);
    cio_json_int(j, "stored_bytes", stored);
    cio_json_int(j, "file_bytes", file);
    json_ratio(j, "ratio", data, stored);
    json_ratio(j, "file_ratio", data, file);
    cio_json_arr(j, "files");
    for (int i = 0; i < s->nfiles; i++) {
        const cio_storage_file *f = &s->files[i];
        cio_json_obj(j, NULL);
        cio_json_str(j, "path", f->path);
        cio_json_int(j, "file_bytes", f->file_bytes);
        if (f->error) {
            cio_json_str(j, "error", f->error);
        } else {
            cio_json_int(j, "data_bytes", f->data);
            cio_json_int(j, "stored_bytes", f->stored);
            cio_json_num(j, "ratio", ratio(f->data, f->stored));
            cio_json_num(j, "file_ratio", ratio(f->data, f->file_bytes));
            cio_json_arr(j, "variables");
            for (int v = 0; v < f->nvars; v++) {
                cio_json_obj(j, NULL);
                cio_json_str(j, "name", f->vars[v].name);
                cio_json_int(j, "data_bytes", f->vars[v].data);
                cio_json_int(j, "stored_bytes", f->vars[v].stored);
                cio_json_num(j, "ratio", ratio(f->vars[v].data, f->vars[v].stored));
                cio_json_obj_end(j);
            }
            cio_json_arr_end(j);
        }
        cio_json_obj_end(j);
    }
    cio_json_arr_end(j);
    cio_json_obj_end(j);
}
