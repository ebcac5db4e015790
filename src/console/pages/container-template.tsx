/**
 * A container's forms, shared by a new application and an application's page: the container
 * request schema's fields (image and pull policy), its environment variables and its
 * delivery-network endpoints as rows, and how rows and the API's endpoints map onto each other.
 */
import { useState } from 'preact/hooks';
import { itemsOfRows, type Raw, RowsEditor, rowsOf } from '../form';
import { bodySchema, type Field, fieldsOf, nestedFields, propertyOf } from '../schema';

export interface PortMapping {
  containerPort: number;
  exposedPort: number | null;
  protocols?: string[];
}

export interface Endpoint {
  displayName: string;
  type: string;
  isSslEnabled: boolean;
  portMappings: PortMapping[];
}

export interface Template {
  id: string;
  name: string;
  image: string;
  environmentVariables: { name: string; value?: string }[];
  endpoints: Endpoint[];
  [field: string]: unknown;
}

export interface Application {
  id: string;
  name: string;
  status: string;
  runtimeType: string;
  autoScaling: { min: number; max: number };
  containerTemplates: Template[];
  [field: string]: unknown;
}

/** The fields of a container shown in its forms, in this order. */
const CONTAINER_FIELDS = ['name', 'imageNamespace', 'imageName', 'imageTag', 'imageRegistryId', 'imagePullPolicy'];

export const pick = (fields: Field[], names: string[]) => names.map((name) => fields.find((f) => f.name === name)).filter((f): f is Field => f !== undefined);

export interface ContainerForms {
  container: Field[];
  variable: Field[];
  /** A delivery-network endpoint with one port: its name, HTTPS, and the port mapping (`port.*`). */
  endpoint: Field[];
}

/** A container body's forms: from the container request schema (POST /mc/apps/{appId}/containers). */
export async function containerForms(): Promise<ContainerForms> {
  const schema = await bodySchema('post', '/mc/apps/{appId}/containers');
  const endpoint = await propertyOf(schema, 'endpoints');
  const cdn = await propertyOf(endpoint, 'cdn');
  const port = await propertyOf(cdn, 'portMappings');
  return {
    container: pick(fieldsOf(schema), CONTAINER_FIELDS),
    variable: fieldsOf(await propertyOf(schema, 'environmentVariables')),
    endpoint: [
      ...pick(fieldsOf(endpoint), ['displayName']),
      ...pick(nestedFields('cdn', cdn, false), ['cdn.isSslEnabled']),
      ...pick(nestedFields('port', port), ['port.containerPort', 'port.exposedPort']),
    ],
  };
}

/** Endpoint rows as the API takes them: a delivery-network endpoint forwarding its one port. */
export const endpointsOfRows = (fields: Field[], rows: Record<string, Raw>[]) =>
  itemsOfRows(fields, rows).map(({ port, ...endpoint }) => ({
    ...endpoint,
    cdn: { ...((endpoint['cdn'] as object | undefined) ?? {}), portMappings: [port] },
  }));

/** An endpoint as returned, as rows show it (delivery-network ones) or as the API takes it back unchanged (the rest). */
const endpointRow = (e: Endpoint) => ({ displayName: e.displayName, cdn: { isSslEnabled: e.isSslEnabled }, port: e.portMappings[0] ?? {} });
export const endpointAsSent = (e: Endpoint) => ({
  displayName: e.displayName,
  anycast: { type: 'iPv4', portMappings: e.portMappings.map(({ containerPort, exposedPort, protocols }) => ({ containerPort, exposedPort, protocols })) },
});

/** The rows of a container's variables and endpoints, shown inside its form. */
export function useContainerRows(forms: ContainerForms, template?: Template) {
  const [variables, setVariables] = useState<Record<string, Raw>[] | undefined>(undefined);
  const [endpoints, setEndpoints] = useState<Record<string, Raw>[] | undefined>(undefined);
  const cdn = (template?.endpoints ?? []).filter((e) => e.type === 'cdn');
  return {
    variables: variables ?? rowsOf(forms.variable, template?.environmentVariables),
    endpoints: endpoints ?? rowsOf(forms.endpoint, cdn.map(endpointRow)),
    changed: { variables: variables !== undefined, endpoints: endpoints !== undefined },
    setVariables,
    setEndpoints,
  };
}

export function ContainerRows({ id, forms, rows }: { id: string; forms: ContainerForms; rows: ReturnType<typeof useContainerRows> }) {
  return (
    <>
      <RowsEditor id={id} legend="Environment variables" noun="variable" fields={forms.variable} rows={rows.variables} setRows={rows.setVariables} />
      <RowsEditor
        id={id}
        legend="Endpoints (through the delivery network)"
        noun="endpoint"
        fields={forms.endpoint}
        rows={rows.endpoints}
        setRows={rows.setEndpoints}
      />
    </>
  );
}
