/** The guest's port name for the agent channel (a virtio-serial port). */
export const AGENT_PORT = 'looplane';
/** Where the egress proxy appears on the guest's user-mode network (QEMU forwards it to the run's proxy socket). */
export const GUEST_PROXY = { address: '10.0.2.100', port: 3128 } as const;

/**
 * The guest's PID 1, run by the initramfs's static busybox. It mounts the kernel filesystems,
 * loads the virtio, 9p and network modules, mounts the host's /usr read-only and the session's
 * workspace read-write (virtio-9p), writes a minimal /etc and brings up loopback (and, with
 * egress, the user-mode network plus a relay from 127.0.0.1:3128 to the proxy, like every other
 * driver). Then it serves the host over the agent port, one call at a time:
 *
 *   host → guest   `run <n> <memoryBytes> <pids> <cpuQuotaMicros> <tmpBytes> <fileBlocks>`
 *   host → guest   `kill <n>` (the call hit a limit or was cancelled: its cgroup is killed whole)
 *   guest → host   `done <n> <exit status> <oom kills>`
 *
 * A call's script, stdin and output live in `/looplane/ctl/<n>` (a third 9p share only root can
 * reach). Each call gets a fresh cgroup (memory, pids, CPU) and a fresh sized /tmp, runs as the
 * session's uid with every capability dropped and no privilege gain, and is killed whole
 * (`cgroup.kill`) before `done` is sent, so nothing of it outlives the call. Any failure to set
 * the guest up powers it off; the host then reports the console log.
 */
export function microvmInit(): string {
  return `#!/looplane/busybox sh
B=/looplane/busybox
fail() { echo "looplane-init: $*" >/dev/console; $B poweroff -f; }
$B chmod 0755 /
$B mount -t proc -o nosuid,nodev,noexec,hidepid=invisible proc /proc || fail proc
$B mount -t sysfs -o nosuid,nodev,noexec sysfs /sys
$B mount -t devtmpfs -o nosuid,noexec devtmpfs /dev
$B ln -s /proc/self/fd /dev/fd
$B rmdir /root 2>/dev/null
$B mkdir -p /dev/shm /dev/pts
for m in $($B cat /looplane/modules/order); do $B insmod "/looplane/modules/$m.ko" || fail "insmod $m"; done
U=; G=; EGRESS=0
for word in $($B cat /proc/cmdline); do
  case "$word" in
    looplane.uid=*) U="\${word#*=}" ;;
    looplane.gid=*) G="\${word#*=}" ;;
    looplane.egress=*) EGRESS="\${word#*=}" ;;
  esac
done
[ -n "$U" ] && [ "$U" != 0 ] && [ -n "$G" ] || fail "no unprivileged uid given"
opts=trans=virtio,version=9p2000.L,msize=262144
$B mount -t 9p -o "$opts,ro,nosuid,nodev,cache=loose" usr /usr || fail "mount /usr"
$B mount -t 9p -o "$opts,nosuid,nodev,cache=none" ws /workspace || fail "mount /workspace"
$B mount -t 9p -o "$opts,nosuid,nodev,noexec,cache=none" ctl /looplane/ctl || fail "mount ctl"
$B mount -t tmpfs -o mode=1777,nosuid,nodev,size=1m tmpfs /dev/shm
$B mount -t cgroup2 -o nosuid,nodev,noexec cgroup2 /sys/fs/cgroup || fail cgroup2
echo '+memory +pids +cpu' >/sys/fs/cgroup/cgroup.subtree_control || fail "cgroup controllers"
# Overcommit as on a host, so a memory hog meets the call's cgroup (and is reported OOM-killed) rather than a refused malloc.
# The guest kernel is the boundary, but its attack surface stays as small as the other drivers': no user namespaces, no unprivileged bpf, userfaultfd or perf.
for setting in user/max_user_namespaces=0 kernel/unprivileged_bpf_disabled=1 vm/unprivileged_userfaultfd=0 kernel/perf_event_paranoid=3 kernel/kptr_restrict=2 kernel/dmesg_restrict=1 vm/overcommit_memory=1; do
  echo "\${setting#*=}" >"/proc/sys/\${setting%%=*}" || fail "sysctl $setting"
done
echo "sandbox:x:$U:$G:sandbox:/workspace:/bin/sh" >>/etc/passwd
echo "sandbox:x:$G:" >>/etc/group
$B ip link set lo up
if [ "$EGRESS" = 1 ]; then
  $B ip addr add 10.0.2.15/24 dev eth0 && $B ip link set eth0 up || fail "network"
  $B setsid /usr/bin/socat TCP-LISTEN:${GUEST_PROXY.port},bind=127.0.0.1,fork,reuseaddr TCP:${GUEST_PROXY.address}:${GUEST_PROXY.port} </dev/null >/dev/null 2>&1 &
  i=0
  while ! $B grep -q ':0C38 00000000:0000 0A' /proc/net/tcp; do i=$((i+1)); [ "$i" -gt 2000 ] && fail "egress relay"; $B usleep 5000; done
fi
port=
for p in /sys/class/virtio-ports/*; do [ "$($B cat "$p/name" 2>/dev/null)" = ${AGENT_PORT} ] && port="/dev/\${p##*/}"; done
[ -n "$port" ] || fail "no agent port"
exec 3<>"$port"
cg=/sys/fs/cgroup/call
echo "ready $($B uname -r)" >&3
call() {
  n=$1; memory=$2; pids=$3; quota=$4; tmp=$5; blocks=$6
  d="/looplane/ctl/$n"
  $B mkdir "$cg" && echo "$memory" >"$cg/memory.max" && echo "$pids" >"$cg/pids.max" && echo "$quota 100000" >"$cg/cpu.max" || fail "call cgroup"
  echo "$n" >/looplane/current
  $B umount /tmp 2>/dev/null
  $B mount -t tmpfs -o "mode=1777,nosuid,nodev,size=$tmp" tmpfs /tmp || fail "tmp"
  $B sh -c 'echo $$ >"$1/cgroup.procs" && ulimit -c 0 && ulimit -f "$2" && exec /usr/bin/setpriv --reuid="$3" --regid="$4" --clear-groups --inh-caps=-all --bounding-set=-all --no-new-privs /usr/bin/env -i /bin/sh /dev/fd/9' \\
    looplane-call "$cg" "$blocks" "$U" "$G" 9<"$d/run.sh" <"$d/stdin" >"$d/out" 2>"$d/err"
  status=$?
  echo 1 >"$cg/cgroup.kill"
  while [ -n "$($B cat "$cg/cgroup.procs")" ]; do $B usleep 1000; done
  oom=$($B sed -n 's/^oom_kill //p' "$cg/memory.events")
  $B rm -f /looplane/current
  $B rmdir "$cg"
  echo "done $n $status \${oom:-0}" >&3
}
# One call at a time runs in the background, so a kill line for it is read and served while it runs.
while read -r verb n memory pids quota tmp blocks <&3; do
  case "$verb" in
    run) call "$n" "$memory" "$pids" "$quota" "$tmp" "$blocks" & ;;
    kill) [ "$($B cat /looplane/current 2>/dev/null)" = "$n" ] && echo 1 >"$cg/cgroup.kill" ;;
  esac
done
$B poweroff -f
`;
}
