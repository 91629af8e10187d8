/* Opening input files without blocking on what is not a regular file (not installed). */
#ifndef TOTEX_INTERNAL_FILE_H
#define TOTEX_INTERNAL_FILE_H

#include <stdint.h>
#include <stdio.h>

/** What totex_open_regular() found when it did not return a stream. */
typedef enum totex_open_result {
    TOTEX_OPEN_OK = 0,      /**< *out is an open stream on a regular file */
    TOTEX_OPEN_ERRNO,       /**< open() or fstat() failed: errno says why */
    TOTEX_OPEN_NOT_REGULAR, /**< a FIFO, socket, device or directory: refused without reading */
    TOTEX_OPEN_TOO_LARGE    /**< a regular file of more than max_bytes bytes */
} totex_open_result;

/**
 * Open @p path for reading ("rb") only if it is a regular file of at most
 * @p max_bytes bytes. The file is opened with O_NONBLOCK and checked with
 * fstat() on the descriptor before anything is read, so a FIFO (mkfifo), a
 * terminal or a socket never blocks the caller and a path
 * swapped between a check and the open cannot slip through.
 *
 * @param out  the stream on success (caller fcloses), NULL otherwise
 * @param size the file's size in bytes on success (may be NULL)
 * @return TOTEX_OPEN_OK or the reason; on TOTEX_OPEN_ERRNO errno is kept.
 */
totex_open_result totex_open_regular(const char *path, uint64_t max_bytes, FILE **out, uint64_t *size);

#endif
