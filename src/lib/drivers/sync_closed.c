/* --fsync end for the drivers that store files (sync_closed, driver.h): a closed
 * output is made durable by path.  The data of a closed file is in the operating
 * system by then (every library flushed it at its close), and an fsync on any
 * descriptor of a file writes back that file's dirty pages. */
#include "config.h"
#include "drivers/io_util.h"
#include "drivers/driver.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* fsync one regular file; 0 or an errno. */
static int sync_file(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) return errno;
    int err = fsync(fd) == 0 ? 0 : errno;
    close(fd);
    return err;
}

/* A folder: each regular file directly in it; 0 or an errno (*bad names the file). */
static int sync_folder(const char *path, int *calls, char *bad, size_t badlen)
{
    DIR *d = opendir(path);
    if (!d) return errno;
    int err = 0;
    struct dirent *de;
    struct stat st;
    while (!err && (de = readdir(d)) != NULL) {
        snprintf(bad, badlen, "%s/%s", path, de->d_name);
        if (stat(bad, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        err = sync_file(bad);
        (*calls)++;
    }
    closedir(d);
    if (!err) snprintf(bad, badlen, "%s", path);
    return err;
}

int cio_fsync_path(cio_dfile *f, const char *path, int *calls)
{
    struct stat st;
    char bad[4096];
    int code;
    snprintf(bad, sizeof bad, "%s", path);
    *calls = 0;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        code = sync_folder(path, calls, bad, sizeof bad);
    } else {
        code = sync_file(path);
        *calls = 1;
    }
    return code ? cio_driver_err(f, "fsync", "%s: %s", bad, strerror(code)) : 0;
}

int cio_sync_closed_path(cio_dfile *f, int *calls) { return cio_fsync_path(f, f->path, calls); }
