/**
 * Help texts, built from the command specs so they can never disagree with what the parser accepts.
 */
import {
  COMMAND_NAMES,
  COMMAND_SUMMARIES,
  type CommandName,
  type CommandSpec,
  type OptionSpec,
  type ProtocolCommands,
  type ToolCommandSpec,
} from './command-spec';
import { ExitCode } from './exit-codes';

/** Options every command accepts. */
export const COMMON_OPTIONS: readonly OptionSpec[] = [
  { name: 'help', short: 'h', type: 'boolean', description: 'show this help' },
  { name: 'debug', type: 'boolean', description: 'show stack traces and internal details on errors' },
];

const EXIT_CODE_HELP: [number, string][] = [
  [ExitCode.ok, 'ok'],
  [ExitCode.failure, 'runtime or protocol error (bad RDDL, a peer breaking the protocol)'],
  [ExitCode.usage, 'usage error (unknown option, bad value)'],
  [ExitCode.policy, 'policy error (syntax error, throw, time budget, invalid actions)'],
  [ExitCode.connection, 'connection error (refused, closed early, timeout, address in use)'],
  [ExitCode.interrupted, 'interrupted (Ctrl-C); what was recorded is kept'],
];

/** `protoplay --help`. */
export function generalHelp(
  protocols: readonly ProtocolCommands[],
  tools: readonly ToolCommandSpec[] = [],
): string {
  const commands = [
    ...COMMAND_NAMES.map((name) => [name, COMMAND_SUMMARIES[name]] as const),
    ...tools.map((tool) => [tool.name, tool.summary] as const),
  ];
  const offered = protocols.map(
    (protocol) =>
      [
        protocol.id,
        `${protocol.title} (${COMMAND_NAMES.filter((name) => protocol.commands[name]).join(', ')})`,
      ] as const,
  );
  const example = protocols[0] ? [`  protoplay run ${protocols[0].id} --help`] : [];
  return [
    'Protoplay on the command line: play, serve and connect to agent/environment protocols.',
    '',
    'Usage: protoplay <command> <protocol> [options]',
    ...tools.map((tool) => `       ${tool.usage}`),
    '',
    'Commands:',
    ...columns(commands),
    '',
    'Protocols:',
    ...columns(offered),
    '',
    'Options:',
    ...optionLines(COMMON_OPTIONS),
    '',
    exitCodeHelp(),
    '',
    'Help on one command:',
    ...example,
    '',
  ].join('\n');
}

/** `protoplay run --help`: which protocols offer the command. */
export function commandHelp(command: CommandName, protocols: readonly ProtocolCommands[]): string {
  const offering = protocols.filter((protocol) => protocol.commands[command]);
  return [
    `protoplay ${command}: ${COMMAND_SUMMARIES[command]}.`,
    '',
    `Usage: protoplay ${command} <protocol> [options]`,
    '',
    'Protocols:',
    ...columns(offering.map((protocol) => [protocol.id, protocol.commands[command]!.summary] as const)),
    '',
    ...offering.map((protocol) => `  protoplay ${command} ${protocol.id} --help`),
    '',
  ].join('\n');
}

/** `protoplay run rddlsim --help`. */
export function protocolCommandHelp(
  command: CommandName,
  protocol: ProtocolCommands,
  spec: CommandSpec,
): string {
  return [
    `protoplay ${command} ${protocol.id}: ${spec.summary}.`,
    '',
    `Usage: protoplay ${command} ${protocol.id} [options]`,
    ...(spec.description ? ['', spec.description] : []),
    '',
    'Options:',
    ...optionLines([...spec.options, ...COMMON_OPTIONS]),
    '',
    'Examples:',
    ...spec.examples.map((example) => `  protoplay ${example}`),
    '',
    exitCodeHelp(),
    '',
  ].join('\n');
}

function exitCodeHelp(): string {
  return [
    'Exit codes:',
    ...columns(EXIT_CODE_HELP.map(([code, text]) => [String(code), text] as const)),
  ].join('\n');
}

function optionLines(options: readonly OptionSpec[]): string[] {
  return columns(
    options.map((option) => {
      const value = option.type === 'string' ? ` ${option.valueName ?? 'VALUE'}` : '';
      const short = option.short ? `-${option.short}, ` : '    ';
      const repeat = option.multiple ? ' ...' : '';
      return [`${short}--${option.name}${value}${repeat}`, option.description] as const;
    }),
  );
}

/** Two aligned columns, indented; long right-hand texts wrap under themselves. */
function columns(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(0, ...rows.map(([left]) => left.length));
  const wrapAt = Math.max(40, 100 - width - 4);
  return rows.flatMap(([left, right]) => {
    const lines = wrap(right, wrapAt);
    return lines.map((line, i) => `  ${(i === 0 ? left : '').padEnd(width)}  ${line}`.trimEnd());
  });
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines;
}

/** `protoplay <tool> --help`. */
export function toolHelp(tool: ToolCommandSpec, details?: string): string {
  return [
    `${tool.summary[0]!.toUpperCase()}${tool.summary.slice(1)}.`,
    '',
    `Usage: ${tool.usage}`,
    ...(tool.description ? ['', tool.description] : []),
    ...(details ? [details] : []),
    '',
    'Options:',
    ...optionLines([...tool.options, ...COMMON_OPTIONS]),
    '',
    'Examples:',
    ...tool.examples.map((example) => `  ${example}`),
    '',
  ].join('\n');
}
