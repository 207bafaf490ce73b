// Test-only gates (docs/DURABILITY.md, "Test gates"): a test holds a process at a known point
// instead of guessing how long it takes to get there. When the environment variable NAME holds a
// path PATH, test_gate(NAME) creates PATH.reached (the test waits for it) and then waits until
// PATH exists (the test creates it to let the process go on), polling every 10 ms, for at most 10
// minutes (a forgotten gate turns a hang into a slow run, never into a different result). A gate
// that exists already lets every later arrival pass at once. Unset, the call costs one getenv.
// "%a" in the path stands for $SLURM_ARRAY_TASK_ID (one task of a job array held, tests/cli/slurm.sh).
// While a stop is requested (base/stop.hh, a Ctrl-C during training) the wait ends at once, so a
// held process can be interrupted like a running one.
//   LTLKIT_TEST_GATE_LOCKED      after a process takes a folder's lock (automata/lock.cc)
//   LTLKIT_TEST_GATE_CHECKPOINT  after training writes a checkpoint (neural/train.cc)
//   LTLKIT_TEST_GATE_EVALUATING  when train's or eval's evaluation starts (cli/run_summary.hh)
//   LTLKIT_TEST_GATE_EVALUATED   after train's or eval's last test length, before the result is
//                                written (cli/run_summary.hh)
#pragma once

namespace ltlkit {

void test_gate(const char* name);

}  // namespace ltlkit
