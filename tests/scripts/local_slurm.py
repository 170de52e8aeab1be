"""A private one-node Slurm for the tests: its own munged (own socket and key),
its own slurm.conf (free ports, state in a temporary folder) selected with
SLURM_CONF, so it disturbs no Slurm or munge already on the machine.  Needs
root (slurmd) and the slurm-wlm and munge packages; stop() ends every daemon
it started."""

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

DAEMONS = ("munged", "slurmctld", "slurmd")
CLIENTS = ("sbatch", "srun", "squeue", "sinfo")

CONF = """ClusterName=climiotest
SlurmctldHost=localhost
SlurmctldPort={ctld_port}
SlurmdPort={d_port}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={dir}/munge.sock
CredType=cred/munge
MpiDefault=pmix
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
StateSaveLocation={dir}/state
SlurmdSpoolDir={dir}/spool
SlurmctldPidFile={dir}/slurmctld.pid
SlurmdPidFile={dir}/slurmd.pid
SlurmctldLogFile={dir}/slurmctld.log
SlurmdLogFile={dir}/slurmd.log
ReturnToService=2
NodeName=localhost NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
"""


class Unavailable(Exception):
    """Slurm cannot run here; the message says why."""


def _free_ports(n):
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def _sbin(name):
    return shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin")


class LocalSlurm:
    def __init__(self):
        self.dir = None
        self.env = None
        self.pids = []

    def start(self, timeout=45):
        missing = [n for n in DAEMONS + CLIENTS if not _sbin(n)]
        if missing:
            raise Unavailable("slurm-wlm and munge are not installed (missing %s): apt-get install slurm-wlm munge"
                              % ", ".join(missing))
        if os.geteuid() != 0:
            raise Unavailable("starting slurmd needs root")
        # short path: the munge socket name must fit in a sockaddr_un
        self.dir = tempfile.mkdtemp(prefix="climio-slurm-", dir="/tmp")
        os.chmod(self.dir, 0o711)
        for sub in ("state", "spool"):
            os.mkdir(os.path.join(self.dir, sub))
        key = os.path.join(self.dir, "munge.key")
        with open(key, "wb") as f:
            f.write(os.urandom(128))
        os.chmod(key, 0o600)
        ctld, d = _free_ports(2)
        conf = os.path.join(self.dir, "slurm.conf")
        with open(conf, "w") as f:
            f.write(CONF.format(dir=self.dir, ctld_port=ctld, d_port=d, cpus=os.cpu_count() or 2))
        self.env = dict(os.environ, SLURM_CONF=conf)
        for v in [k for k in self.env if k.startswith("SLURM_") and k != "SLURM_CONF"]:
            del self.env[v]
        self._daemon([_sbin("munged"), "--force", "--socket=%s/munge.sock" % self.dir, "--key-file=%s" % key,
                      "--pid-file=%s/munged.pid" % self.dir, "--log-file=%s/munged.log" % self.dir,
                      "--seed-file=%s/munged.seed" % self.dir], "munged")
        self._daemon([_sbin("slurmctld")], "slurmctld")
        self._daemon([_sbin("slurmd"), "-N", "localhost"], "slurmd")
        t0 = time.time()
        state = ""
        while time.time() - t0 < timeout:
            p = subprocess.run(["sinfo", "-h", "-o", "%t"], env=self.env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
            state = p.stdout.strip()
            if p.returncode == 0 and state == "idle":
                return self
            time.sleep(0.5)
        raise Unavailable("the local Slurm did not become idle in %d s (sinfo: %s)\n%s" % (
            timeout, state, self.logs()))

    def _daemon(self, argv, name):
        p = subprocess.run(argv, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=60)
        pidfile = os.path.join(self.dir, name + ".pid")
        for _ in range(50):
            if os.path.exists(pidfile) and open(pidfile).read().strip():
                break
            time.sleep(0.1)
        if p.returncode != 0 or not os.path.exists(pidfile):
            raise Unavailable("%s did not start (exit %d): %s\n%s" % (name, p.returncode, p.stdout.strip(),
                                                                       self.logs()))
        self.pids.append(int(open(pidfile).read().strip()))

    def logs(self):
        out = []
        for n in ("munged", "slurmctld", "slurmd"):
            path = os.path.join(self.dir or "", n + ".log")
            if os.path.exists(path):
                out.append("--- %s:\n%s" % (path, "".join(open(path, errors="replace").readlines()[-15:])))
        return "\n".join(out)

    def stop(self):
        """TERM every daemon started here (slurmd first), wait until each is gone."""
        for pid in reversed(self.pids):
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                continue
            t0 = time.time()
            while time.time() - t0 < 15 and _alive(pid):
                time.sleep(0.1)
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        self.pids = []
        if self.dir:
            shutil.rmtree(self.dir, ignore_errors=True)


def _alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(") ")[1][0] != "Z"    # a zombie is gone for our purpose
    except (OSError, IndexError):
        return False
