#!/usr/bin/env bash
# A one-node Slurm cluster of its own, for the batch test: munged, slurmctld and slurmd on this
# machine with a private key, socket, ports, state and spool folder; runs
# `sbatch --wait --array=0-3 JOB` against it and stops the daemons again, whatever happens.
#
# Usage: slurm-array.sh FOLDER JOB. Prints sbatch's exit status as "sbatch-status N"; the
# daemons' logs stay in FOLDER/slurm for a failure's message. Needs root (slurmd).
set -euo pipefail
folder=$1
job=$2
dir=$folder/slurm
mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
chmod 700 "$dir/munge"
head -c 1024 /dev/urandom >"$dir/munge/munge.key"
chmod 400 "$dir/munge/munge.key"
host=$(hostname -s)
# Ports of its own, away from a real cluster's 6817/6818.
port=$((20000 + RANDOM % 20000))
: >"$dir/plugstack.conf"
cat >"$dir/slurm.conf" <<CONF
ClusterName=voicerack-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
PlugStackConfig=$dir/plugstack.conf
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/slurm.conf
pids=()
stop() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
}
trap stop EXIT
# In the foreground, as this script's children, with no descriptor of the caller's.
munged --foreground --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.sock" \
  --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/seed" \
  </dev/null >"$dir/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$dir/munge/munge.sock" ] && break; sleep 0.1; done
slurmctld -D -i -f "$dir/slurm.conf" </dev/null >"$dir/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$dir/slurm.conf" </dev/null >"$dir/slurmd.out" 2>&1 &
pids+=($!)
state=
for _ in $(seq 100); do
  state=$(timeout 5 sinfo -h -o %t 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.2
done
if [ "$state" != idle ]; then
  echo "slurm-array.sh: the private node did not become idle in 20 s (state '$state')" >&2
  exit 69
fi
status=0
# A bound on the wait: a job that never starts fails the test instead of hanging it.
timeout 300 sbatch --wait --array=0-3 --chdir "$folder" -o "$folder/slurm-%A_%a.out" "$job" </dev/null || status=$?
echo "sbatch-status $status"
