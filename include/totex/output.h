/**
 * @file totex/output.h
 * @brief Writing an output file safely: to a temporary file beside it,
 *        renamed over the path only when every write succeeded, so that a
 *        failure leaves the path as it was.
 *
 * A path names:
 *  - "-": standard output, written directly (every write checked);
 *  - a regular file or no file yet: a temporary file in the same directory
 *    (".NAME.totex-PID-N", mode 0666 less the umask, or the existing file's
 *    mode), renamed over the path by totex_output_publish();
 *  - a symbolic link: the same for the file it resolves to (the link stays a
 *    link); a link that cannot be resolved (dangling, a loop) is refused;
 *  - a device, FIFO or socket (e.g. /dev/null, /dev/full): written directly,
 *    never renamed over or removed;
 *  - a directory: refused.
 * Every error is TOTEX_EIO with one line "cannot write output: PATH: REASON".
 */
#ifndef TOTEX_OUTPUT_H
#define TOTEX_OUTPUT_H

#include <stdio.h>

#include "totex/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An output being written (opaque). */
typedef struct totex_output totex_output;

/**
 * Start writing @p path (see the file comment). Nothing is created at the
 * path itself until totex_output_publish().
 * @param path "-", or a file path (not NULL).
 * @param err  receives the message on failure (may be NULL).
 * @return the output (write through totex_output_file()); NULL with
 *         TOTEX_EIO / TOTEX_ENOMEM in @p err.
 */
totex_output *totex_output_open(const char *path, totex_error *err);
/** @param o an open output. @return the stream to write, owned by @p o (do not fclose it). */
FILE *totex_output_file(totex_output *o);
/**
 * Flush and close the stream, checking every write (ferror, fflush, fclose;
 * standard output is flushed, not closed). The file is not yet at its path.
 * @param o an open output. @param err receives the message on failure (may be NULL).
 * @return TOTEX_OK, or TOTEX_EIO "cannot write output: PATH: REASON" (then
 *         totex_output_abort() is still the caller's to call).
 */
totex_status totex_output_close(totex_output *o, totex_error *err);
/**
 * Rename the closed temporary file over its path (nothing to do for
 * standard output and devices) and free @p o.
 * @param o a closed output (totex_output_close()). @param err receives the message on failure (may be NULL).
 * @return TOTEX_OK or TOTEX_EIO (the temporary file is removed, the path
 *         left as it was); @p o is freed either way.
 */
totex_status totex_output_publish(totex_output *o, totex_error *err);
/**
 * totex_output_close() then totex_output_publish(), or totex_output_abort() on failure.
 * @param o an open output, freed either way. @param err receives the message on failure (may be NULL).
 * @return TOTEX_OK, or TOTEX_EIO "cannot write output: PATH: REASON" (the path left as it was).
 */
totex_status totex_output_commit(totex_output *o, totex_error *err);
/** Give up: close and remove the temporary file and free @p o; the path is left as it was. @param o an output, or NULL. */
void totex_output_abort(totex_output *o);
/** @param o an output. @return the path it writes, as given to totex_output_open() (owned by @p o). */
const char *totex_output_path(const totex_output *o);

/**
 * Nonzero when @p a and @p b name the same file: the same device and inode
 * when both exist (through symbolic links), else the same canonical path
 * (their directories resolved). "-" is the same only as "-".
 * @param a, b paths (not NULL). @return nonzero when they name the same file.
 */
int totex_output_same_file(const char *a, const char *b);

#ifdef __cplusplus
}
#endif
#endif
