// Files: reading a whole regular file, writing one atomically (temporary file + rename), writing a
// user-named output, and cleaning up the temporaries an interrupted write leaves behind.
#pragma once

#include <functional>
#include <string>

#include "base/error.hh"

namespace ltlkit {

// Reads a whole regular file; Error mentions the path (exit 2; a directory is an I/O error, exit
// 4). A FIFO, a device or a socket (also through a symbolic link, e.g. to /dev/zero) is refused
// with exit 2 rather than read: it may never end or block forever.
Result<std::string> read_file(const std::string& path);
// Writes atomically (temporary file + rename); every write is checked.
Result<bool> write_file_atomic(const std::string& path, const std::string& content);
// The writer of a user-named output file (`-o PATH`, `--certificates DIR`'s files): a missing
// path or a regular file is written atomically (write_file_atomic); a symbolic link is written
// through (its target, atomically; the link stays); a character device or a FIFO (/dev/null,
// /dev/stdout, a terminal) is written into directly and never renamed over; a directory, a block
// device, a socket or a FIFO that no process reads is refused (exit 4).
Result<bool> write_output_file(const std::string& path, const std::string& content);

// Removes what an interrupted write_file_atomic leaves behind in `dir` (not recursive): regular
// files named NAME.tmp or NAME.tmp.XXXXXX. Errors are ignored.
void remove_stale_temporaries(const std::string& dir);
// Whether `name` is such a temporary (NAME.tmp or NAME.tmp.XXXXXX); `stem` gets NAME.
bool is_temporary_name(const std::string& name, std::string* stem = nullptr);
// Only the temporaries whose NAME satisfies `ours` (the files the caller writes), so that a
// folder shared with a user's own files (notes.tmp.abc123) loses none of them.
void remove_stale_temporaries(const std::string& dir, const std::function<bool(const std::string&)>& ours);

}  // namespace ltlkit
