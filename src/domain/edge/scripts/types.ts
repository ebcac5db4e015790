/** The stored documents of edge scripts, and what the runtime is handed to run one. */
import type { EdgeScriptType, SourceCodeIntegrationT } from '../../../schemas/edge-scripts.js';

export interface ScriptVariableDoc {
  Id: number;
  Name: string;
  Required: boolean;
  DefaultValue: string | null;
}

export interface ScriptSecretDoc {
  Id: number;
  Name: string;
  /** Sealed at rest (DocumentRepo's credential path `Secrets.*.Value`); never in an answer. */
  Value: string | null;
  LastModified: string;
}

/** One document of kind `edgeScript`: the script, its code as last uploaded, its variables and secrets. */
export interface EdgeScriptDoc {
  Id: number;
  Name: string;
  ScriptType: EdgeScriptType;
  LastModified: string;
  Code: string | null;
  CodeModified: string;
  /** The live release; 0 before the first publish. */
  CurrentReleaseId: number;
  Variables: ScriptVariableDoc[];
  Secrets: ScriptSecretDoc[];
  /** Sealed at rest. */
  DeploymentKey: string;
  Integration: SourceCodeIntegrationT | null;
}

/** One document of kind `edgeScriptRelease`, under its script (parent). */
export interface ScriptReleaseDoc {
  scriptId: number;
  Id: number;
  Uuid: string;
  Code: string;
  Note: string | null;
  Author: string | null;
  DateReleased: string;
  DatePublished: string;
}

/** What one runtime instance runs: a release of a script, with its environment. */
export interface ScriptRelease {
  scriptId: number;
  releaseId: number;
  scriptType: EdgeScriptType;
  code: string;
  /** Variables (their values) and secrets (opened), by name: the script's environment. */
  env: Record<string, string>;
}
