/**
 * A script's variables and secrets: both reach the script as environment variables, so a name is
 * either a variable or a secret, never both (as on the platform). A secret's value is sealed at
 * rest (the script document's `Secrets.*.Value`) and no answer carries it.
 */
import type {
  AddEdgeScriptVariableRequestT,
  EdgeScriptSecretT,
  EdgeScriptVariableT,
  UpdateEdgeScriptVariableRequestT,
  UpsertEdgeScriptVariableRequestT,
} from '../../../schemas/edge-scripts.js';
import type { StoreTx } from '../../../store/types.js';
import { errors } from '../../errors.js';
import type { Principal } from '../../principal.js';
import type { EdgeScriptService } from './service.js';
import type { EdgeScriptDoc, ScriptSecretDoc, ScriptVariableDoc } from './types.js';

/** The platform's limits page: at most 128 variables per script. */
export const MAX_SCRIPT_VARIABLES = 128;
/** An environment variable's name as the runtime can hand it over. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function checkName(doc: EdgeScriptDoc, name: string, as: 'variable' | 'secret', exceptId?: number): void {
  if (!ENV_NAME.test(name)) {
    throw errors.validation('Name', `"${name}" is no environment variable name: letters, digits and _, not starting with a digit.`, 'edgescript.invalid_name');
  }
  const other = as === 'variable' ? doc.Secrets : doc.Variables;
  if (other.some((o) => sameName(o.Name, name))) {
    throw errors.validation(
      'Name',
      `A ${as === 'variable' ? 'secret' : 'variable'} of the script is named "${name}": a name is a variable or a secret, not both.`,
      'edgescript.name_in_use',
    );
  }
  const own: { Id: number; Name: string }[] = as === 'variable' ? doc.Variables : doc.Secrets;
  if (own.some((o) => o.Id !== exceptId && sameName(o.Name, name))) {
    throw errors.validation('Name', `The script already has a ${as} named "${name}".`, 'edgescript.name_taken');
  }
  if (doc.Variables.length + doc.Secrets.length >= MAX_SCRIPT_VARIABLES && exceptId === undefined) {
    throw errors.validation('Name', `A script has at most ${MAX_SCRIPT_VARIABLES} variables and secrets.`, 'edgescript.too_many_variables');
  }
}

const secretView = (s: ScriptSecretDoc): EdgeScriptSecretT => ({ Id: s.Id, Name: s.Name, LastModified: s.LastModified });

export class EdgeScriptSettings {
  constructor(private readonly scripts: EdgeScriptService) {}

  /** A variable's or secret's id, drawn in the edit's transaction once its checks passed (a refusal draws none). */
  private nextId(tx: StoreTx): Promise<number> {
    return tx.nextId('edgeScriptVariable');
  }

  async addVariable(principal: Principal, id: number, input: AddEdgeScriptVariableRequestT): Promise<EdgeScriptVariableT> {
    let variable: ScriptVariableDoc | undefined;
    await this.scripts.edit(principal, id, async (s, tx) => {
      checkName(s, input.Name, 'variable');
      variable = { Id: await this.nextId(tx), Name: input.Name, Required: input.Required, DefaultValue: input.DefaultValue ?? null };
      return { ...s, Variables: [...s.Variables, variable] };
    });
    return variable!;
  }

  async variable(principal: Principal, id: number, variableId: number): Promise<EdgeScriptVariableT> {
    const { doc } = await this.scripts.doc(this.scripts.store, principal.accountId, id);
    const found = doc.Variables.find((v) => v.Id === variableId);
    if (!found) throw errors.notFound('variable');
    return found;
  }

  async updateVariable(principal: Principal, id: number, variableId: number, input: UpdateEdgeScriptVariableRequestT): Promise<EdgeScriptVariableT> {
    let updated: ScriptVariableDoc | undefined;
    await this.scripts.edit(principal, id, (s) => {
      if (!s.Variables.some((v) => v.Id === variableId)) throw errors.notFound('variable');
      return {
        ...s,
        Variables: s.Variables.map((v) => {
          if (v.Id !== variableId) return v;
          updated = { ...v, DefaultValue: input.DefaultValue === undefined ? v.DefaultValue : input.DefaultValue, Required: input.Required ?? v.Required };
          return updated;
        }),
      };
    });
    return updated!;
  }

  /** Adds the variable, or changes the one of that name: `created` says which. */
  async upsertVariable(
    principal: Principal,
    id: number,
    input: UpsertEdgeScriptVariableRequestT,
  ): Promise<{ created: boolean; variable: EdgeScriptVariableT }> {
    let result: { created: boolean; variable: ScriptVariableDoc } | undefined;
    await this.scripts.edit(principal, id, async (s, tx) => {
      const existing = s.Variables.find((v) => sameName(v.Name, input.Name));
      if (existing) {
        const variable = {
          ...existing,
          DefaultValue: input.DefaultValue === undefined ? existing.DefaultValue : input.DefaultValue,
          Required: input.Required ?? existing.Required,
        };
        result = { created: false, variable };
        return { ...s, Variables: s.Variables.map((v) => (v.Id === existing.Id ? variable : v)) };
      }
      checkName(s, input.Name, 'variable');
      const variable = { Id: await this.nextId(tx), Name: input.Name, Required: input.Required ?? false, DefaultValue: input.DefaultValue ?? null };
      result = { created: true, variable };
      return { ...s, Variables: [...s.Variables, variable] };
    });
    return result!;
  }

  async deleteVariable(principal: Principal, id: number, variableId: number): Promise<void> {
    await this.scripts.edit(principal, id, (s) => {
      if (!s.Variables.some((v) => v.Id === variableId)) throw errors.notFound('variable');
      return { ...s, Variables: s.Variables.filter((v) => v.Id !== variableId) };
    });
  }

  // -------------------------------------------------------------------------------------------
  // Secrets

  async secrets(principal: Principal, id: number): Promise<{ Secrets: EdgeScriptSecretT[] }> {
    const { doc } = await this.scripts.doc(this.scripts.store, principal.accountId, id);
    return { Secrets: doc.Secrets.map(secretView) };
  }

  async addSecret(principal: Principal, id: number, name: string, value: string | null | undefined): Promise<EdgeScriptSecretT> {
    let secret: ScriptSecretDoc | undefined;
    await this.scripts.edit(principal, id, async (s, tx) => {
      checkName(s, name, 'secret');
      secret = { Id: await this.nextId(tx), Name: name, Value: value ?? null, LastModified: this.scripts.clock().toISOString() };
      return { ...s, Secrets: [...s.Secrets, secret] };
    });
    return secretView(secret!);
  }

  async updateSecret(principal: Principal, id: number, secretId: number, value: string | null | undefined): Promise<EdgeScriptSecretT> {
    let updated: ScriptSecretDoc | undefined;
    const now = this.scripts.clock().toISOString();
    await this.scripts.edit(principal, id, (s) => {
      if (!s.Secrets.some((x) => x.Id === secretId)) throw errors.notFound('secret');
      return { ...s, Secrets: s.Secrets.map((x) => (x.Id === secretId ? (updated = { ...x, Value: value ?? null, LastModified: now }) : x)) };
    });
    return secretView(updated!);
  }

  /** Adds the secret, or sets the one of that name: `created` says which. */
  async upsertSecret(
    principal: Principal,
    id: number,
    name: string | null | undefined,
    value: string | null | undefined,
  ): Promise<{ created: boolean; secret: EdgeScriptSecretT }> {
    const now = this.scripts.clock().toISOString();
    let result: { created: boolean; secret: ScriptSecretDoc } | undefined;
    await this.scripts.edit(principal, id, async (s, tx) => {
      // After the script is found: another account's script is a 404 whatever the body.
      if (!name) throw errors.validation('Name', 'The Name field is required.', 'validation_error');
      const existing = s.Secrets.find((x) => sameName(x.Name, name));
      if (existing) {
        const secret = { ...existing, Value: value ?? null, LastModified: now };
        result = { created: false, secret };
        return { ...s, Secrets: s.Secrets.map((x) => (x.Id === existing.Id ? secret : x)) };
      }
      checkName(s, name, 'secret');
      const secret = { Id: await this.nextId(tx), Name: name, Value: value ?? null, LastModified: now };
      result = { created: true, secret };
      return { ...s, Secrets: [...s.Secrets, secret] };
    });
    return { created: result!.created, secret: secretView(result!.secret) };
  }

  async deleteSecret(principal: Principal, id: number, secretId: number): Promise<void> {
    await this.scripts.edit(principal, id, (s) => {
      if (!s.Secrets.some((x) => x.Id === secretId)) throw errors.notFound('secret');
      return { ...s, Secrets: s.Secrets.filter((x) => x.Id !== secretId) };
    });
  }
}
