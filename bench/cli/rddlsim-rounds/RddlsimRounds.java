// Rounds of rddlsim's own in-process simulator (rddl.sim.Simulator.run: state reset, then the horizon's
// steps) with its NoopPolicy, timed in one JVM after a warm-up, for run-fast.bench.ts. Compiled by the
// bench against the rddlsim build named by RDDLSIM_HOME; rddlsim itself is not part of this repository.
// Warm-up and timing are counted in CPU seconds of the process, so that on a busy machine the JIT gets
// the same work done before the timing starts as on a quiet one.
//
// usage: RddlsimRounds RDDL_DIR INSTANCE WARMUP_CPU_SECONDS TIMED_CPU_SECONDS
// prints: steps <n> rounds <n> seconds <wall s> cpu <process CPU s>
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.io.PrintStream;
import rddl.RDDL;
import rddl.policy.NoopPolicy;
import rddl.sim.Result;
import rddl.sim.Simulator;
import rddl.viz.NullScreenDisplay;

public class RddlsimRounds {
  public static void main(String[] args) throws Exception {
    String dir = args[0];
    String instance = args[1];
    long warmupCpu = (long) (Double.parseDouble(args[2]) * 1e9);
    long timedCpu = (long) (Double.parseDouble(args[3]) * 1e9);
    PrintStream out = System.out;
    // The policy prints a banner at every round start and end; it is not what is measured.
    System.setOut(new PrintStream(OutputStream.nullOutputStream()));
    Simulator simulator = new Simulator(new RDDL(dir), instance);
    NoopPolicy policy = new NoopPolicy(instance);
    NullScreenDisplay display = new NullScreenDisplay(false);
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long seed = 1;
    long warm = os.getProcessCpuTime() + warmupCpu;
    while (os.getProcessCpuTime() < warm) simulator.run(policy, display, seed++);
    long steps = 0;
    long rounds = 0;
    long cpuStart = os.getProcessCpuTime();
    long start = System.nanoTime();
    while (os.getProcessCpuTime() - cpuStart < timedCpu) {
      Result result = simulator.run(policy, display, seed++);
      steps += result._rewards.size();
      rounds++;
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    double cpu = (os.getProcessCpuTime() - cpuStart) / 1e9;
    out.println("steps " + steps + " rounds " + rounds + " seconds " + seconds + " cpu " + cpu);
  }
}
