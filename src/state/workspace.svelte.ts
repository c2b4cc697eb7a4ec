/** What the learner is working on: protocol, environment and policy code. Persisted and shareable. */
import type { PolicyLanguage, PolicyLevel } from '../core/policy/types';
import { PROTOCOLS } from '../core/protocols/registry';
import type { ProtocolId } from '../core/transcript/model';
import { codeForLanguage } from './policy-language';

/** The plain-data form of the workspace, as stored and put in URLs. */
export interface WorkspaceData {
  protocol: ProtocolId;
  environment: string;
  code: string;
  language: PolicyLanguage;
  level: PolicyLevel;
}

/** The current workspace, reactive. */
export class Workspace {
  protocol = $state<ProtocolId>(PROTOCOLS[0]!.id);
  environment = $state('');
  code = $state('');
  language = $state<PolicyLanguage>('ts');
  level = $state<PolicyLevel>('policy');
  /** Bumped when the code is replaced from outside the editor (a sample, a URL), so the editor reloads it. */
  replaced = $state(0);

  /** The name errors and the editor's model use for the policy file. */
  get fileName(): string {
    return `policy.${this.language}`;
  }

  toData(): WorkspaceData {
    return {
      protocol: this.protocol,
      environment: this.environment,
      code: this.code,
      language: this.language,
      level: this.level,
    };
  }

  /** Replaces the whole workspace (from storage or a URL). */
  apply(data: WorkspaceData): void {
    this.protocol = data.protocol;
    this.environment = data.environment;
    this.language = data.language;
    this.level = data.level;
    this.replaceCode(data.code);
  }

  /** Switches the policy's language, converting the code (see `codeForLanguage`). */
  async setLanguage(language: PolicyLanguage): Promise<void> {
    const from = this.language;
    if (from === language) return;
    const code = this.code;
    const converted = await codeForLanguage(code, from, language);
    // The learner may have typed while the converter loaded: then only the language changes.
    this.replaceCode(this.code === code ? converted : this.code, language);
  }

  /** Replaces the policy code, e.g. with a sample. */
  replaceCode(code: string, language: PolicyLanguage = this.language, level: PolicyLevel = this.level): void {
    this.code = code;
    this.language = language;
    this.level = level;
    this.replaced++;
  }
}
