# A real single-node Slurm cluster for a test (tests/cli/slurm.sh; docs/CLUSTER.md). Sourced.
#
#   slurm_start       installs what is missing (.ci/install-deps.sh), writes a slurm.conf for this
#                     machine (one node: its CPU count and memory) under a fresh temporary folder,
#                     starts munged, slurmctld -D and slurmd -D as children of the test, waits until
#                     sinfo shows the node idle, and stops all of it on exit (EXIT/INT/TERM traps)
#   slurm_stop        ends the test's own processes listed in SLURM_STOP_PIDS, cancels the jobs,
#                     stops the daemons and every process left with this cluster's SLURM_CONF in
#                     its environment (job steps), removes the folder (kept when a test failed)
#   slurm_field ID K  field K of `scontrol show job ID` (JobState, ExitCode, Restarts, ...)
#   slurm_wait_ended SECONDS ID...   waits until no job of the list is pending, running or
#                     completing
#   slurm_until SECONDS CMD...        wait_until (kill_lib.bash) polling every 0.3 s: each poll of a
#                     Slurm command is a process and an RPC
#
# No system file is touched: SLURM_CONF points at the temporary slurm.conf, munged runs with its
# own key, socket, pid and log files, and both daemons use two free ports. Configuration (Slurm
# 22.05, Debian 12): proctrack/linuxproc and task/none (no cgroup, no systemd), select/cons_tres
# with CR_CPU (the node's CPUs are the resource), jobcomp/filetxt (one line per finished job, read
# by tests since there is no accounting database), and preemption by partition priority: a job of
# partition `urgent` requeues jobs of the default partition `batch` after a SIGTERM and GraceTime.

SLURM_GRACE=${SLURM_GRACE:-15}  # seconds between the SIGTERM of a preemption and its SIGKILL

slurm_start() {
    local missing=0 b
    for b in munged slurmctld slurmd sbatch; do command -v "$b" >/dev/null || missing=1; done
    if ((missing)); then
        "$src/.ci/install-deps.sh" >/dev/null || { echo "slurm: installing Slurm and munge failed"; return 1; }
    fi
    SLURM_TMP=$(mktemp -d "${TMPDIR:-/tmp}/ltlkit-slurm.XXXXXX") || return 1
    trap slurm_stop EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    local t=$SLURM_TMP
    mkdir -p "$t/state" "$t/spool" "$t/log" "$t/munge" "$t/sock"
    # munged refuses a socket folder that is not searchable by all, and a key readable by others.
    chmod 755 "$t" "$t/sock"
    chmod 700 "$t/munge"
    head -c 1024 /dev/urandom > "$t/munge/munge.key"
    chmod 400 "$t/munge/munge.key"
    local ports host cpus mem user
    ports=$(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])') || return 1
    read -r SLURM_CTLD_PORT SLURM_D_PORT <<<"$ports"
    host=$(hostname -s)
    cpus=$(nproc)
    mem=$(($(awk '/^MemTotal:/ {print $2}' /proc/meminfo) / 1024 * 9 / 10))  # MiB, 10 % for the system
    user=$(id -un)
    cat > "$t/slurm.conf" <<EOF
ClusterName=ltlkit-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=$user
SlurmdUser=$user
SlurmctldPort=$SLURM_CTLD_PORT
SlurmdPort=$SLURM_D_PORT
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$t/sock/munge.socket,cred_expire=10
StateSaveLocation=$t/state
SlurmdSpoolDir=$t/spool
SlurmctldPidFile=$t/slurmctld.pid
SlurmdPidFile=$t/slurmd.pid
SlurmctldLogFile=$t/log/slurmctld.log
SlurmdLogFile=$t/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=1,sched_interval=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$t/jobcomp.txt
ReturnToService=2
KillWait=5
MinJobAge=3600
PreemptType=preempt/partition_prio
PreemptMode=REQUEUE
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=batch Nodes=ALL Default=YES MaxTime=INFINITE State=UP PriorityTier=1 PreemptMode=REQUEUE GraceTime=$SLURM_GRACE
PartitionName=urgent Nodes=ALL MaxTime=INFINITE State=UP PriorityTier=2 PreemptMode=OFF
EOF
    export SLURM_CONF=$t/slurm.conf
    munged --foreground --socket="$t/sock/munge.socket" --key-file="$t/munge/munge.key" \
        --log-file="$t/log/munged.log" --pid-file="$t/munge/munged.pid" --seed-file="$t/munge/munged.seed" \
        >"$t/log/munged.out" 2>&1 &
    SLURM_MUNGED_PID=$!
    wait_until 30 test -S "$t/sock/munge.socket" || { echo "slurm: munged did not start"; slurm_logs; return 1; }
    slurmctld -D -i >"$t/log/slurmctld.out" 2>&1 &
    SLURM_CTLD_PID=$!
    slurmd -D >"$t/log/slurmd.out" 2>&1 &
    SLURM_D_PID=$!
    local state
    slurm_idle() { state=$(sinfo -h -n "$host" -o %T 2>/dev/null | head -1); [[ $state == idle ]]; }
    slurm_until 90 slurm_idle || { echo "slurm: node not idle after 90 s (state '$state')"; slurm_logs; return 1; }
    echo "slurm: node $host idle ($cpus CPUs, $mem MiB) under $t, ports $SLURM_CTLD_PORT/$SLURM_D_PORT"
}

slurm_logs() {
    local f
    for f in "$SLURM_TMP"/log/*; do
        echo "--- $f (last 15 lines)"
        tail -n 15 "$f"
    done
}

# The processes whose environment names this cluster's slurm.conf (daemons, job steps, jobs).
# One grep over every /proc/PID/environ (NUL-separated), run without SLURM_CONF so that it does not
# match itself; the test's shell is left out by its pid.
slurm_pids() (
    conf=$SLURM_CONF
    unset SLURM_CONF
    grep -lsxzF "SLURM_CONF=$conf" /proc/[0-9]*/environ | sed -n 's|^/proc/\([0-9]*\)/environ$|\1|p' | grep -vx "$$"
)

slurm_stop() {
    trap - EXIT INT TERM
    local pid
    for pid in ${SLURM_STOP_PIDS:-}; do kill -TERM "$pid" 2>/dev/null; done
    [[ -n ${SLURM_TMP:-} && -d $SLURM_TMP ]] || return 0
    if [[ -n ${SLURM_CTLD_PID:-} ]] && kill -0 "$SLURM_CTLD_PID" 2>/dev/null; then
        scancel --quiet --user="$(id -un)" 2>/dev/null
        local i
        for ((i = 0; i < 100; i++)); do
            [[ -z $(squeue -h 2>/dev/null) ]] && break
            sleep 0.1
        done
    fi
    for pid in ${SLURM_D_PID:-} ${SLURM_CTLD_PID:-} ${SLURM_MUNGED_PID:-}; do kill -TERM "$pid" 2>/dev/null; done
    for pid in ${SLURM_D_PID:-} ${SLURM_CTLD_PID:-} ${SLURM_MUNGED_PID:-}; do
        wait_until 10 eval "! kill -0 $pid 2>/dev/null" || kill -KILL "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    # Job steps outlive slurmd by design; those of this cluster are ended by their ids.
    for pid in $(slurm_pids); do kill -KILL "$pid" 2>/dev/null; done
    if ((${fails:-0})) || [[ -n ${SLURM_KEEP:-} ]]; then
        echo "slurm: kept $SLURM_TMP"
    else
        rm -rf "$SLURM_TMP"
    fi
}

slurm_until() { WAIT_POLL=0.3 wait_until "$@"; }

slurm_field() {
    scontrol -o show job "$1" 2>/dev/null | head -1 | tr ' ' '\n' | sed -n "s/^$2=//p"
}

slurm_wait_ended() {
    local seconds=$1
    shift
    local ids
    ids=$(IFS=,; echo "$*")
    # squeue lists pending, running and completing jobs by default.
    slurm_until "$seconds" eval "[[ -z \$(squeue -h -j $ids -o %i 2>/dev/null) ]]"
}
