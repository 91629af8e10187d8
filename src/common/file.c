/* Opening input files without blocking on FIFOs, devices or sockets (src/common/file.h). */
#include "common/file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

totex_open_result totex_open_regular(const char *path, uint64_t max_bytes, FILE **out, uint64_t *size)
{
    struct stat sb;
    int fd, flags, e;
    *out = NULL;
    /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer */
    fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return TOTEX_OPEN_ERRNO;
    if (fstat(fd, &sb) != 0) {
        e = errno;
        close(fd);
        errno = e;
        return TOTEX_OPEN_ERRNO;
    }
    if (!S_ISREG(sb.st_mode)) {
        close(fd);
        return TOTEX_OPEN_NOT_REGULAR;
    }
    if ((uint64_t)sb.st_size > max_bytes) {
        close(fd);
        return TOTEX_OPEN_TOO_LARGE;
    }
    /* a regular file: reads never block, but stdio expects a blocking descriptor */
    flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0 || !(*out = fdopen(fd, "rb"))) {
        e = errno;
        close(fd);
        errno = e;
        return TOTEX_OPEN_ERRNO;
    }
    if (size)
        *size = (uint64_t)sb.st_size;
    return TOTEX_OPEN_OK;
}
