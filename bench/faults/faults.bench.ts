/**
 * `npm run bench -- faults`: fault injection against `serve` of every protocol (child processes on
 * loopback, see harness.ts), then 500 connections at once against each. Prints per fault what the server
 * did, the faults injected and survived, the server's memory (resident after listening, sampled peak
 * while the faults ran, kernel peak including writing the transcript at the end), and for the load the
 * time for all 500 against one connection alone (the baseline, measured in the same run), failures and
 * peak memory. FAULTS_PROTOCOL=rddlsim runs one protocol; FAULTS_CONNECTIONS changes the 500.
 */
import { SERVE_TARGETS } from './harness';
import { runLoad } from './load';
import { runFaults } from './run-faults';

const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

export default async function faults(): Promise<void> {
  const only = process.env.FAULTS_PROTOCOL;
  const connections = Number(process.env.FAULTS_CONNECTIONS ?? 500);
  const targets = SERVE_TARGETS.filter((target) => !only || target.protocol === only);
  let injected = 0;
  let survived = 0;
  for (const target of targets) {
    const run = await runFaults(target);
    console.log(`serve ${target.protocol}`);
    for (const outcome of run.outcomes) {
      injected++;
      const asExpected =
        (outcome.expect !== 'closed' || outcome.end.closedByServer) &&
        (outcome.expect !== 'answered' || outcome.end.received > 0) &&
        (!outcome.expectedLog || outcome.matching === 1);
      if (asExpected) survived++;
      const did = outcome.end.closedByServer ? 'closed by the server' : 'left by the peer';
      console.log(
        `  ${outcome.name.padEnd(48)} ${asExpected ? 'ok  ' : 'FAIL'} ${did.padEnd(20)} after ${(outcome.end.sent / 1024 / 1024).toFixed(1).padStart(5)} MiB sent  ${(outcome.ms / 1000).toFixed(1).padStart(5)} s  RSS ${mb(outcome.rssBeforeKb)} -> ${mb(outcome.rssKb)}`,
      );
    }
    const good = run.good.results.every((result) => result.code === 0) && run.goodComplete.every(Boolean);
    console.log(
      `  alongside: ${run.good.results.length} well-behaved client(s) ${good ? 'completed, transcripts whole' : 'FAILED'}; a new peer answered afterwards: ${run.answersAfter ? 'yes' : 'NO'}`,
    );
    console.log(
      `  memory: ${mb(run.baselineKb)} after listening, ${mb(run.sampledPeakKb)} peak while faults ran, ${mb(run.peakKb)} kernel peak (with the transcript written at the end)`,
    );
  }
  console.log(`faults injected ${injected}, survived as documented ${survived}`);
  for (const target of targets) {
    const load = await runLoad(target, connections);
    console.log(
      `serve ${target.protocol.padEnd(8)} ${load.connections} connections at once: ${(load.ms / 1000).toFixed(2)} s for all (one alone: ${load.singleMs.toFixed(0)} ms; ${(load.ms / load.singleMs).toFixed(1)}x), ${load.failures} failures, RSS ${mb(load.baselineKb)} -> ${mb(load.sampledPeakKb)} (kernel peak ${mb(load.peakKb)}), exit ${load.serveCode}`,
    );
  }
}
