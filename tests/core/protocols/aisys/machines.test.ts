/**
 * The machines of both roles against the real server's recordings, one agent's conversation at a time:
 * the client's machine finds nothing wrong with what the real server sent; the server's machine finds
 * exactly the requests the recordings made on purpose to break a rule. Then responses a faulty server
 * could send, each caught by the client's machine with the rule it breaks.
 */
import { describe, expect, it } from 'vitest';
import { validate } from '../../../../src/core/protocols/machine';
import { aisysClientMachine, aisysServerMachine } from '../../../../src/core/protocols/aisys/machines';
import type { Transcript, TranscriptMessage } from '../../../../src/core/transcript/model';
import { RECORDING_NAMES, loadRecording } from './recordings';

/** Violations of a machine over each channel (agent) of a transcript, as `case label: rule`. */
function violations(transcript: Transcript, machine: typeof aisysClientMachine): string[] {
  const labels = new Map(
    transcript.annotations.map((note) => [
      note.index,
      (note.data as { text: string }).text.replace(/^case: /, ''),
    ]),
  );
  const channels = new Map<string, TranscriptMessage[]>();
  for (const message of transcript.messages) {
    const key = message.channel ?? '';
    channels.set(key, [...(channels.get(key) ?? []), message]);
  }
  const found: string[] = [];
  for (const messages of channels.values()) {
    for (const violation of validate(machine, messages).violations) {
      const exchange = transcript.messages[violation.index]?.http?.exchange ?? violation.index;
      found.push(`${labels.get(exchange) ?? `#${exchange}`}: ${violation.rule}`);
    }
  }
  return found.sort();
}

describe('against the recordings', () => {
  it.each(RECORDING_NAMES)("the client's machine finds nothing wrong with the real server in %s", (name) => {
    expect(violations(loadRecording(name), aisysClientMachine)).toEqual([]);
  });

  it("the server's machine finds exactly the requests made to break a rule", () => {
    const found = RECORDING_NAMES.flatMap((name) => violations(loadRecording(name), aisysServerMachine));
    expect(found.sort()).toEqual(
      [
        'abandon-and-act-same-run: aisys.action.abandoned-run',
        'abandon-finished-run: aisys.abandon.inactive',
        'abandon-unknown-run: aisys.abandon.inactive',
        'action-for-finished-run: aisys.action.unrequested',
        'action-missing-act_no: aisys.request.schema',
        'action-missing-action: aisys.request.schema',
        'action-run-as-int: aisys.request.schema',
        'act_no-fractional: aisys.request.schema',
        'actions-not-list: aisys.request.schema',
        'array-body: aisys.request.schema',
        'bare-number: aisys.request.body-type',
        'bare-string: aisys.request.schema',
        'body-too-large: aisys.request.too-large',
        'duplicate-action-same-run: aisys.action.duplicate',
        'empty-array: aisys.request.empty',
        'empty-body: aisys.request.json',
        'empty-object: aisys.request.empty',
        'malformed-json: aisys.request.json',
        'method-post: aisys.request.method',
        'missing-agent: aisys.request.schema',
        'missing-pwd: aisys.request.schema',
        'no-content-type: aisys.request.content-type',
        'non-numeric-run-id: aisys.action.unrequested',
        'protocol-version-2: aisys.request.version',
        'protocol-version-null: aisys.request.version',
        'protocol-version-string: aisys.request.version',
        'pwd-not-string: aisys.request.schema',
        'run-of-other-agent: aisys.action.unrequested',
        'text-plain-content-type: aisys.request.content-type',
        'to_abandon-not-list: aisys.request.schema',
        'unknown-run-id: aisys.action.unrequested',
        'v0-request-wrong-runid-format: aisys.request.schema',
        'wrong-act_no-stale: aisys.action.act-no',
      ].sort(),
    );
  });
});

/** A clean session (02 by default) with one response rewritten by `change` (its body parsed and written back). */
function tampered(
  exchange: number,
  change: (body: Record<string, unknown>) => void,
  status?: number,
  recording: (typeof RECORDING_NAMES)[number] = '02-simple-v1-parallel',
): Transcript {
  const transcript = structuredClone(loadRecording(recording));
  const responses = transcript.messages.filter((message) => message.dir === 's2c');
  const response = responses[exchange - 1]!;
  const body = JSON.parse(response.text!) as Record<string, unknown>;
  change(body);
  response.text = JSON.stringify(body);
  if (status !== undefined) response.http!.status = status;
  return transcript;
}

type Request = { act_no: number; percept: unknown; run: string };

describe('a faulty server', () => {
  it.each<[string, Transcript, string]>([
    [
      'a new run while others are outstanding',
      // 03 plays one run at a time: after 11 is answered, 12 to 15 are still outstanding.
      tampered(
        2,
        (body) => {
          body.action_requests = [{ act_no: 0, percept: 9, run: '16' }];
          body.active_runs = ['11', '12', '13', '14', '15', '16'];
        },
        undefined,
        '03-simple-v1-serial-resume',
      ),
      'aisys.response.outstanding-first',
    ],
    [
      'an action number that does not follow',
      tampered(2, (body) => ((body.action_requests as Request[])[0]!.act_no = 3)),
      'aisys.response.act-no',
    ],
    [
      'a response without active_runs',
      tampered(2, (body) => delete body.active_runs),
      'aisys.response.shape',
    ],
    [
      'a run asked for but not active',
      tampered(2, (body) => (body.active_runs = ['2', '3', '4', '5'])),
      'aisys.response.active-runs',
    ],
    [
      'runs out of order',
      tampered(2, (body) => (body.action_requests as Request[]).reverse()),
      'aisys.response.order',
    ],
    [
      'a finished run the request did not touch',
      tampered(2, (body) => (body.finished_runs = { '77': 1 })),
      'aisys.response.finished-runs',
    ],
    [
      'an error whose errorcode is not the status',
      tampered(
        2,
        (body) => {
          for (const key of Object.keys(body)) delete body[key];
          Object.assign(body, { errorcode: 400, errorname: 'Bad Request', description: 'x' });
        },
        401,
      ),
      'aisys.response.errorcode',
    ],
  ])('%s is caught', (_what, transcript, rule) => {
    const rules = validate(aisysClientMachine, transcript.messages).violations.map(
      (violation) => violation.rule,
    );
    expect(rules).toContain(rule);
  });

  it('a request left without a response is caught at the end', () => {
    const transcript = loadRecording('14-curl-canonical-serial');
    const cut = transcript.messages.slice(0, -1);
    expect(validate(aisysClientMachine, cut).violations.map((v) => v.rule)).toEqual([
      'aisys.response.missing',
    ]);
  });

  it('outstanding runs skipped in a response are caught', () => {
    // 03's serial session: after answering 11, the server must ask for 12 (outstanding), not 11 again.
    const transcript = structuredClone(loadRecording('03-simple-v1-serial-resume'));
    const second = transcript.messages.filter((message) => message.dir === 's2c')[1]!;
    second.text = second.text!.replace(
      '{"act_no":1,"percept":7,"run":"12"}',
      '{"act_no":2,"percept":6,"run":"11"}',
    );
    const found = validate(aisysClientMachine, transcript.messages).violations;
    expect(found[0]!.rule).toBe('aisys.response.outstanding-first');
    // It names the runs still outstanding, each with the action number it waits for, lowest id first.
    expect(found[0]!.expected).toBe('the outstanding runs first, lowest id first (11#2)');
  });
});
