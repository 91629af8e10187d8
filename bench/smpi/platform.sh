# Sourced by bench/smpi/run.sh and first_call.sh: the project's SMPI torus platform.
# smpi_torus_platform OUT TORUS  (TORUS like 4x4x4) writes OUT/torus-TORUS.xml and
# OUT/hosts-TORUS and sets n (ranks), plat and hosts (their paths).
# TORUS cluster, 10 GB/s links, 1 us latency, split-duplex (the platform of the executor's SMPI measurements in docs/performance.md).
smpi_torus_platform() {
    _out=$1 _t=$2
    n=$(echo "$_t" | tr 'x' '\n' | awk 'BEGIN{p=1}{p*=$1}END{print p}')
    _params=$(echo "$_t" | tr 'x' ',')
    plat=$_out/torus-$_t.xml
    cat >"$plat" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="world" routing="Full">
    <cluster id="torus-$_t" topology="TORUS" topo_parameters="$_params" prefix="node-" radical="0-$((n - 1))" suffix=""
             speed="1Gf" bw="10GBps" lat="1us" sharing_policy="SPLITDUPLEX" loopback_bw="100GBps" loopback_lat="0"/>
  </zone>
</platform>
XML
    hosts=$_out/hosts-$_t
    _i=0; : >"$hosts"
    while [ $_i -lt "$n" ]; do echo "node-$_i" >>"$hosts"; _i=$((_i + 1)); done
}
