/* Generated from the server's /openapi.json by openapi-typescript (apps/server/test/web/client-types.integration.test.ts). Do not edit. */
export interface paths {
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI document */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Prometheus metrics (text exposition format) */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Health of the instance and its dependencies (200 when all are ok, else 503) */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with username and password, a local account or through LDAP (sets the svc_refresh cookie) */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** New access token from the svc_refresh cookie (rotates the cookie) */
        post: operations["refreshSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign out: revokes the session family and this access token, clears the cookie */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change your email or display name */
        patch: operations["updateMe"];
        trace?: never;
    };
    "/api/v1/me/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change your password; ends your other sessions */
        post: operations["changeMyPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Users of the instance (administrators) */
        get: operations["listUsers"];
        put?: never;
        /** Create a local user, who must change the password at first login (administrators) */
        post: operations["createUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One user (administrators, or yourself) */
        get: operations["getUser"];
        put?: never;
        post?: never;
        /** Delete a user, revoking its sessions and tokens (administrators) */
        delete: operations["deleteUser"];
        options?: never;
        head?: never;
        /** Change a user; disabled: true revokes its sessions and tokens (administrators) */
        patch: operations["updateUser"];
        trace?: never;
    };
    "/api/v1/api-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your personal API tokens (administrators: any user with ?user_id=) */
        get: operations["listApiTokens"];
        put?: never;
        /** Create a personal API token (its value is returned this once) */
        post: operations["createApiToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/api-tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One personal API token */
        get: operations["getApiToken"];
        put?: never;
        post?: never;
        /** Revoke a personal API token */
        delete: operations["revokeApiToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sso/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OIDC providers (administrators) */
        get: operations["listSsoProviders"];
        put?: never;
        /** Add an OIDC provider (administrators) */
        post: operations["createSsoProvider"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sso/providers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One OIDC provider (administrators) */
        get: operations["getSsoProvider"];
        put?: never;
        post?: never;
        /** Remove an OIDC provider (administrators) */
        delete: operations["deleteSsoProvider"];
        options?: never;
        head?: never;
        /** Change an OIDC provider; a config without the secret keeps it (administrators) */
        patch: operations["updateSsoProvider"];
        trace?: never;
    };
    "/api/v1/ldap/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** LDAP providers (administrators) */
        get: operations["listLdapProviders"];
        put?: never;
        /** Add an LDAP provider (administrators) */
        post: operations["createLdapProvider"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ldap/providers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One LDAP provider (administrators) */
        get: operations["getLdapProvider"];
        put?: never;
        post?: never;
        /** Remove an LDAP provider (administrators) */
        delete: operations["deleteLdapProvider"];
        options?: never;
        head?: never;
        /** Change an LDAP provider; a config without the secret keeps it (administrators) */
        patch: operations["updateLdapProvider"];
        trace?: never;
    };
    "/api/v1/ldap/providers/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Check an LDAP provider: connection, TLS, service bind, user base (administrators) */
        post: operations["testLdapProvider"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sso/discovery": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Enabled single sign-on providers, for the login page */
        get: operations["ssoDiscovery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sso/{id}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Start a single sign-on: redirects to the provider (authorization code with PKCE and a nonce) */
        get: operations["ssoStart"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sso/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The provider returns here: the state is checked (signature, lifetime, once), the code exchanged, the ID token validated; then a session starts (svc_refresh cookie) and the browser goes to the web UI */
        get: operations["ssoCallback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Projects you can see (administrators: all) */
        get: operations["listProjects"];
        put?: never;
        /** Create a project (administrators) */
        post: operations["createProject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/projects/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One project (project:read) */
        get: operations["getProject"];
        put?: never;
        post?: never;
        /** Delete a project and everything in it (administrators) */
        delete: operations["deleteProject"];
        options?: never;
        head?: never;
        /** Rename or describe a project (project:write) */
        patch: operations["updateProject"];
        trace?: never;
    };
    "/api/v1/admin/projects/{id}/environments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Environments of a project (project:read) */
        get: operations["listEnvironments"];
        put?: never;
        /** Add an environment to a project (project:write) */
        post: operations["createEnvironment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/projects/{id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Members of a project (member:read) */
        get: operations["listMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/projects/{id}/members/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Add a member or change its role and environments (member:write) */
        put: operations["putMember"];
        post?: never;
        /** Remove a member from a project (member:write) */
        delete: operations["removeMember"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Built-in and custom roles */
        get: operations["listRoles"];
        put?: never;
        /** Create a custom role (administrators) */
        post: operations["createRole"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/roles/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One role */
        get: operations["getRole"];
        put?: never;
        post?: never;
        /** Delete a custom role no member holds (administrators) */
        delete: operations["deleteRole"];
        options?: never;
        head?: never;
        /** Change a custom role (administrators) */
        patch: operations["updateRole"];
        trace?: never;
    };
    "/api/v1/license": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** State of the instance license */
        get: operations["getLicense"];
        /** Install a license (administrators; allowed in read-only mode) */
        put: operations["putLicense"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/data-connectors/kinds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Connector kinds with the JSON Schema of their configuration */
        get: operations["listConnectorKinds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/data-connectors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Data connectors you may read (connector:read), optionally of one project */
        get: operations["listDataConnectors"];
        put?: never;
        /** Create a data connector (connector:write); secret fields are stored encrypted and never returned */
        post: operations["createDataConnector"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/data-connectors/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One data connector (connector:read) */
        get: operations["getDataConnector"];
        put?: never;
        post?: never;
        /** Delete a data connector and its catalog entries (connector:write) */
        delete: operations["deleteDataConnector"];
        options?: never;
        head?: never;
        /** Change a data connector (connector:write); omitted secrets are kept */
        patch: operations["updateDataConnector"];
        trace?: never;
    };
    "/api/v1/data-connectors/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Try to connect with the stored configuration; names the cause of a failure (connector:read) */
        post: operations["testDataConnector"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/data-connectors/{id}/discover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Discover datasets and record them in the catalog (connector:write) */
        post: operations["discoverDataConnector"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/catalog/datasets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Datasets found by discovery (catalog:read), optionally of one connector or project, searched by text, tag or column name */
        get: operations["listCatalogDatasets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/catalog/datasets/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One dataset with its columns, their notes and suggested tags (catalog:read) */
        get: operations["getCatalogDataset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** A dataset's description, owners and tags; kept across discoveries (catalog:write) */
        patch: operations["updateCatalogDataset"];
        trace?: never;
    };
    "/api/v1/catalog/datasets/{id}/columns/{column}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** A column's description and tags: a suggested tag given in tags is confirmed, one in dismiss is never suggested again (catalog:write) */
        patch: operations["updateCatalogColumn"];
        trace?: never;
    };
    "/api/v1/catalog/datasets/{id}/classify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Read a sample of the dataset through its connector and suggest personal-data tags for columns whose values look like e-mail addresses, phone, card (Luhn) or IBAN numbers, national ids or IP addresses (catalog:write) */
        post: operations["classifyCatalogDataset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/lineage/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OpenLineage RunEvents of the runs (lineage:read), oldest first, optionally of one run, job or dataset */
        get: operations["listLineageEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/lineage/graph": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Datasets and jobs upstream and/or downstream of a node, within depth hops (lineage:read) */
        get: operations["getLineageGraph"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/lineage/columns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where a column of a dataset came from, level by level (lineage:read) */
        get: operations["getColumnLineage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/lineage/forwarding": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The external OpenLineage endpoint events are forwarded to (administrators) */
        get: operations["getLineageForwarding"];
        /** Forward the RunEvents to an external OpenLineage endpoint, through the egress policy (administrators) */
        put: operations["updateLineageForwarding"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/retention-policies/target-kinds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What a retention policy can prune on this instance (target kinds, their scope) */
        get: operations["listRetentionTargetKinds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/retention-policies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retention policies of the projects where the caller holds policy:read (administrators also see instance-wide ones) */
        get: operations["listRetentionPolicys"];
        put?: never;
        /** Create a retention policy: a target, max_age, optional max_rows and keep_last_failed, an optional cron or interval schedule (policy:write; instance-wide targets: administrators) */
        post: operations["createRetentionPolicy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/retention-policies/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One retention policy (policy:read) */
        get: operations["getRetentionPolicy"];
        put?: never;
        post?: never;
        /** Delete a retention policy and its sweep history (policy:write) */
        delete: operations["deleteRetentionPolicy"];
        options?: never;
        head?: never;
        /** Change a retention policy (policy:write) */
        patch: operations["updateRetentionPolicy"];
        trace?: never;
    };
    "/api/v1/retention-policies/{id}/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Dry run: what a sweep started now would delete, per table, and its cutoff (policy:read) */
        post: operations["previewRetentionPolicy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/retention-policies/{id}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a sweep now: a project's runs as an execution (retention_sweep) (policy:write) */
        post: operations["runRetentionPolicy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/retention-policies/{id}/sweeps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The sweeps of a policy, newest first, with their counts per table (policy:read) */
        get: operations["listRetentionSweeps"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/masking-policies/evaluate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sample rows as the caller would see them under the project's masking policies, with the policy that masks each column (policy:read) */
        post: operations["evaluateMaskingPolicies"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/masking-policies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Masking policies of the projects where the caller holds policy:read */
        get: operations["listMaskingPolicys"];
        put?: never;
        /** Create a masking policy: a method, the columns it covers by name or catalog tag, and who is exempt (policy:write) */
        post: operations["createMaskingPolicy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/masking-policies/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One masking policy (policy:read) */
        get: operations["getMaskingPolicy"];
        put?: never;
        post?: never;
        /** Delete a masking policy (policy:write) */
        delete: operations["deleteMaskingPolicy"];
        options?: never;
        head?: never;
        /** Change a masking policy (policy:write) */
        patch: operations["updateMaskingPolicy"];
        trace?: never;
    };
    "/api/v1/executions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Executions, newest first (execution:read); filter by status, kind, project and time; page with cursor */
        get: operations["listExecutions"];
        put?: never;
        /** Start a run (kind sync: copy tables from a source connector into a destination connector) (execution:run) */
        post: operations["startExecution"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/executions/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel every queued or running execution that matches the filters (execution:run) */
        post: operations["cancelExecutions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/executions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One execution with its counters (execution:read) */
        get: operations["getExecution"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/executions/{id}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Log lines of an execution (execution:read); after_id continues */
        get: operations["getExecutionLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/executions/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel a queued or running execution; a running one stops within seconds (execution:run) */
        post: operations["cancelExecution"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/executions/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run a failed or cancelled execution again, as a new execution (execution:run) */
        post: operations["retryExecution"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Per project: counts of connectors, pipelines, CDC tables and schedules; executions of the last 24 h by status; rows moved per day; what is failing now (execution:read; each count and the failing pipelines only where the caller may also read that kind) */
        get: operations["getOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/etl/pipelines": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Pipelines the caller may read (pipeline:read) */
        get: operations["listPipelines"];
        put?: never;
        /** Create a pipeline: source streams, transform steps, a destination, dependencies (pipeline:write) */
        post: operations["createPipeline"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/etl/pipelines/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One pipeline (pipeline:read) */
        get: operations["getPipeline"];
        put?: never;
        post?: never;
        /** Delete a pipeline no other pipeline depends on and that is not running (pipeline:write) */
        delete: operations["deletePipeline"];
        options?: never;
        head?: never;
        /** Change a pipeline; runs in flight keep the definition they started with (pipeline:write) */
        patch: operations["updatePipeline"];
        trace?: never;
    };
    "/api/v1/etl/pipelines/{id}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run the pipeline now: an execution of kind pipeline; 409 while one is queued or running (pipeline:run) */
        post: operations["runPipeline"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/etl/pipelines/{id}/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The steps over the first rows of each stream, with the inferred output schema; writes nothing (pipeline:run) */
        post: operations["previewPipeline"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/etl/pipelines/{id}/state": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Incremental state of each stream: the cursor the next run continues after (pipeline:read) */
        get: operations["getPipelineState"];
        put?: never;
        post?: never;
        /** Forget the incremental state (of one stream, or all): the next run reads from the start (pipeline:write) */
        delete: operations["resetPipelineState"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/etl/schedules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Schedules the caller may read (schedule:read) */
        get: operations["listSchedules"];
        put?: never;
        /** Schedule a pipeline: a cron expression in a time zone, or a fixed interval; one schedule per pipeline (schedule:write) */
        post: operations["createSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/etl/schedules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One schedule (schedule:read) */
        get: operations["getSchedule"];
        put?: never;
        post?: never;
        /** Delete a schedule (schedule:write) */
        delete: operations["deleteSchedule"];
        options?: never;
        head?: never;
        /** Change a schedule; a new timing (or a resume) starts counting from now (schedule:write) */
        patch: operations["updateSchedule"];
        trace?: never;
    };
    "/api/v1/etl/schedules/{id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pause: no due time fires until resumed (schedule:write) */
        post: operations["pauseSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/etl/schedules/{id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resume from now; due times passed while paused are not run (schedule:write) */
        post: operations["resumeSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedules/dashboard": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every schedule with its next due time, last run outcome and duration, failures in a row and missed runs (schedule:read) */
        get: operations["getSchedulesDashboard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Audit events, newest first (administrators); filter by kind, actor_id, since, until; page with cursor */
        get: operations["listAuditLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit-forwarder-settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Audit forwarding destinations with their delivery status (administrators) */
        get: operations["listAuditForwarders"];
        put?: never;
        /** Forward the audit log to an HTTP endpoint or a syslog server (administrators) */
        post: operations["createAuditForwarder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit-forwarder-settings/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One audit forwarding destination with its delivery status (administrators) */
        get: operations["getAuditForwarder"];
        put?: never;
        post?: never;
        /** Stop forwarding to a destination and delete it (administrators) */
        delete: operations["deleteAuditForwarder"];
        options?: never;
        head?: never;
        /** Change a destination; settings left out keep their value, secrets included (administrators) */
        patch: operations["updateAuditForwarder"];
        trace?: never;
    };
    "/api/v1/audit-forwarder-settings/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send one test event to the destination now and report the answer (administrators) */
        post: operations["testAuditForwarder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/cdc-tables": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** CDC tables with their status (cdc:read) */
        get: operations["listCdcTables"];
        put?: never;
        /** Keep a destination table equal to a source table: snapshot, then every change (cdc:write) */
        post: operations["createCdcTable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/cdc-tables/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One CDC table: status, position, lag, counters, last error (cdc:read) */
        get: operations["getCdcTable"];
        put?: never;
        post?: never;
        /** Stop and delete a CDC table, dropping its replication slot and publication at the source (cdc:write) */
        delete: operations["deleteCdcTable"];
        options?: never;
        head?: never;
        /** Rename a CDC table; what it captures is fixed (create another) (cdc:write) */
        patch: operations["updateCdcTable"];
        trace?: never;
    };
    "/api/v1/cdc-tables/{id}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start (or restart after a failure): resumes after the applied position (cdc:write) */
        post: operations["startCdcTable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/cdc-tables/{id}/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stop reading; the position is kept and the slot keeps the changes meanwhile (cdc:write) */
        post: operations["stopCdcTable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/cdc-tables/{id}/resync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start over: a new snapshot replaces the destination (mirror) or is appended (changelog), then streaming (cdc:write) */
        post: operations["resyncCdcTable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/cdc-tables/{id}/lag-history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lag over the last hour, oldest first: one sample every SVC_LAG_SAMPLE_SECONDS (cdc:read) */
        get: operations["getCdcTableLagHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/cdc-tables/{id}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Log lines of a CDC table, oldest first; after_id continues (cdc:read) */
        get: operations["getCdcTableLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/cdc-tables/{id}/logs/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Live log lines (Server-Sent Events, cdc:read): events `log` with JSON {id, ts, level, message, ...}, the line id as event id; a `: heartbeat` comment every 15 s; Last-Event-ID (header or last_event_id) resumes after that line, else the latest 100 lines come first. The access token goes in `token` (personal tokens are refused here). The stream ends with its credential (expiry, sign-out, revocation, disabled user, lost membership or cdc:read), after a final event `end` with JSON {reason, detail}: do not reconnect with the same token */
        get: operations["streamCdcTableLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/streams": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Streams with their status (stream:read) */
        get: operations["listStreams"];
        put?: never;
        /** Consume a broker subject, queue or stream into a destination table, exactly once (stream:write) */
        post: operations["createStream"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/streams/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One stream: configuration, status, last error (stream:read) */
        get: operations["getStream"];
        put?: never;
        post?: never;
        /** Delete a stream, its runs and its dead letters (stream:write) */
        delete: operations["deleteStream"];
        options?: never;
        head?: never;
        /** Rename a stream or change its format, batching, max deliveries or dead-letter target (stream:write) */
        patch: operations["updateStream"];
        trace?: never;
    };
    "/api/v1/streams/{id}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start consuming (or again after a failure): resumes after what the broker has acknowledged (stream:write) */
        post: operations["startStream"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/streams/{id}/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stop consuming; unacknowledged messages stay at the broker (stream:write) */
        post: operations["stopStream"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/streams/{id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pause: the consumer keeps the stream, its broker connection and its run but takes no messages (status paused) until start (stream:write) */
        post: operations["pauseStream"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/streams/{id}/lag-history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lag over the last hour, oldest first: one sample every SVC_LAG_SAMPLE_SECONDS (stream:read) */
        get: operations["getStreamLagHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/streams/{id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Runs of a stream, newest first: one per worker that consumed it, with its counters (stream:read) */
        get: operations["listStreamRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/streams/{id}/dead-letters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Messages that could not be written, newest first, with why (stream:read) */
        get: operations["listStreamDeadLetters"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/streams/{id}/dead-letters/{dead_letter_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Write a dead message again (the running consumer picks it up): it leaves the list once written, or stays with the new reason (stream:write) */
        post: operations["retryStreamDeadLetter"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/streams/{id}/runs/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Live run status (Server-Sent Events, stream:read): events `status` with JSON {stream, run} (the stream as GET returns it, its latest run as the runs list does), one per change of status or counters and at most one every 500 ms; the event id moves with every change, and Last-Event-ID (header or last_event_id) skips the state already seen; a `: heartbeat` comment every 15 s. The access token goes in `token` (personal tokens are refused here). The stream ends with its credential (expiry, sign-out, revocation, lost membership or stream:read), after a final event `end` with JSON {reason, detail} */
        get: operations["streamStreamRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/file-ingestions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** File ingestions the caller may read (ingestion:read) */
        get: operations["listFileIngestions"];
        put?: never;
        /** Create a file ingestion: a source (upload, folder, S3 prefix or SFTP directory), a format, a destination table (ingestion:write) */
        post: operations["createFileIngestion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/file-ingestions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One file ingestion (ingestion:read) */
        get: operations["getFileIngestion"];
        put?: never;
        post?: never;
        /** Delete a file ingestion, its history and its uploaded files (ingestion:write) */
        delete: operations["deleteFileIngestion"];
        options?: never;
        head?: never;
        /** Change a file ingestion; loads in flight keep what they started with (ingestion:write) */
        patch: operations["updateFileIngestion"];
        trace?: never;
    };
    "/api/v1/file-ingestions/{id}/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Load history: one row per file (size, checksum, rows parsed and loaded, errors, the first with its line and column, status), newest first (ingestion:read) */
        get: operations["listIngestionFiles"];
        put?: never;
        /** Upload one file (multipart/form-data, field "file"), streamed to disk, and start its load; a file of the same name and checksum already loaded is recorded as skipped_duplicate unless force (ingestion:run) */
        post: operations["uploadIngestionFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/file-ingestions/{id}/files/{file_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One row of the load history (ingestion:read) */
        get: operations["getIngestionFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/file-ingestions/{id}/files/{file_id}/reload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Load a kept file again, even though it was loaded: a new history row and a run (409 when the file is no longer kept) (ingestion:run) */
        post: operations["reloadIngestionFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/file-ingestions/{id}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Look for new files in the folder, S3 or SFTP source now and load them: an execution of kind file_ingestion (ingestion:run) */
        post: operations["runFileIngestion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/inboxes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Inboxes the caller may read (ingestion:read) */
        get: operations["listInboxs"];
        put?: never;
        /** Create an inbox: its credential (a bearer token or an HMAC secret the service generates is in this answer only), content types, limits, dedupe key, destination (ingestion:write) */
        post: operations["createInbox"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/inboxes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One inbox; secrets are never shown (ingestion:read) */
        get: operations["getInbox"];
        put?: never;
        post?: never;
        /** Delete an inbox and its request history (ingestion:write) */
        delete: operations["deleteInbox"];
        options?: never;
        head?: never;
        /** Change an inbox; a new auth replaces its credential (ingestion:write) */
        patch: operations["updateInbox"];
        trace?: never;
    };
    "/api/v1/inboxes/{id}/requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every request the inbox received, newest first: accepted or rejected with the reason, size, dedupe hit, rows loaded (ingestion:read) */
        get: operations["listInboxRequests"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/inboxes/{id}/requests/{request_id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Record a kept accepted request again, to be loaded again (ingestion:run) */
        post: operations["replayInboxRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/inboxes/{id}/receive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send data to an inbox (JSON, NDJSON or CSV as the inbox accepts), authenticated with the inbox's own credential (bearer, basic or HMAC of the body); 202 once recorded */
        post: operations["receiveInboxData"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/email-feeds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** E-mail feeds the caller may read (ingestion:read) */
        get: operations["listEmailFeeds"];
        put?: never;
        /** Create an e-mail feed: an IMAP mailbox, filters, what to load (attachments or message fields), a post action, a destination table (ingestion:write) */
        post: operations["createEmailFeed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/email-feeds/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One e-mail feed, with its status (degraded: why the mailbox could not be read) and position (ingestion:read) */
        get: operations["getEmailFeed"];
        put?: never;
        post?: never;
        /** Delete an e-mail feed and its message history (ingestion:write) */
        delete: operations["deleteEmailFeed"];
        options?: never;
        head?: never;
        /** Change an e-mail feed; another host, user or mailbox starts reading from its first message (ingestion:write) */
        patch: operations["updateEmailFeed"];
        trace?: never;
    };
    "/api/v1/email-feeds/{id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Message history: UID, Message-ID, sender, subject, attachments found, rows loaded, status and error, newest first (ingestion:read) */
        get: operations["listEmailFeedMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/email-feeds/{id}/messages/{message_id}/reload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Load one message again, even though it was loaded: a run of kind email_feed (ingestion:run) */
        post: operations["reloadEmailFeedMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/email-feeds/{id}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Read the mailbox now and load its new messages: an execution of kind email_feed (ingestion:run) */
        post: operations["runEmailFeed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/exports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Exports the caller may read (export:read) */
        get: operations["listExports"];
        put?: never;
        /** Create an export: a source dataset or warehouse query, a destination, a format and a mode (export:write) */
        post: operations["createExport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/exports/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One export; secret fields of its destination are never shown (export:read) */
        get: operations["getExport"];
        put?: never;
        post?: never;
        /** Delete an export with its runs, snapshot and failed rows (export:write) */
        delete: operations["deleteExport"];
        options?: never;
        head?: never;
        /** Change an export; a change of what is read starts its diff and cursor again (export:write) */
        patch: operations["updateExport"];
        trace?: never;
    };
    "/api/v1/exports/{id}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run the export now: an execution of kind export; full_resync sends every row whatever the snapshot and cursor say; 409 while one is queued or running (export:run) */
        post: operations["runExport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/exports/{id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The latest runs of an export with their row counts and files, newest first (export:read) */
        get: operations["listExportRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/exports/{id}/runs/{run}/download-link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A signed, expiring link to a file of a run of a file export, for this export's project only (export:read) */
        post: operations["createExportDownloadLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/exports/{id}/runs/{run}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A file of a run, by a link from download-link: its signature and expiry are checked, and the caller must still be able to read the export (export:read) */
        get: operations["downloadExportFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/exports/{id}/failed-rows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Rows that failed with their reason; the next run tries them again (export:read) */
        get: operations["listExportFailedRows"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dw-models/schedules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Schedules of model runs the caller may read (model:read) */
        get: operations["listModelSchedules"];
        put?: never;
        /** Schedule a selection of models (the selectors of /dw-models/run) on a cron expression in a time zone or an interval (model:write and model:run) */
        post: operations["createModelSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dw-models/schedules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One schedule of model runs (model:read) */
        get: operations["getModelSchedule"];
        put?: never;
        post?: never;
        /** Delete a schedule of model runs; runs it started stay (model:write) */
        delete: operations["deleteModelSchedule"];
        options?: never;
        head?: never;
        /** Change a schedule of model runs; {"paused": true} pauses it; a changed or resumed timing is due afresh from now (model:write and model:run) */
        patch: operations["updateModelSchedule"];
        trace?: never;
    };
    "/api/v1/dw-models/graph": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's models as a DAG: nodes, edges (from the model referred to) and dependency order (model:read) */
        get: operations["getModelGraph"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dw-models/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run a selection of models (name, +name, name+, tag:x; none: all) in dependency order: one execution of kind model_run (model:run) */
        post: operations["runModels"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dw-models/runs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The line per model of a model run (execution id): status, rows, duration, test results (model:read) */
        get: operations["getModelRunResults"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dw-models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Warehouse models the caller may read (model:read) */
        get: operations["listModels"];
        put?: never;
        /** Create a warehouse model: a SELECT with refs, its materialization and data tests (model:write) */
        post: operations["createModel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dw-models/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One warehouse model (model:read) */
        get: operations["getModel"];
        put?: never;
        post?: never;
        /** Delete a model no other model refers to; the relation it built stays in the warehouse (model:write) */
        delete: operations["deleteModel"];
        options?: never;
        head?: never;
        /** Change a model; a rename is refused while other models refer to it (model:write) */
        patch: operations["updateModel"];
        trace?: never;
    };
    "/api/v1/dw-models/{id}/compile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The SQL as it will run: refs and sources resolved, ephemeral models inlined (model:read) */
        post: operations["compileModel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dw-models/{id}/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The model's first rows, read as the project's warehouse role (through masked views for a caller the masking policies cover); builds nothing (model:run) */
        post: operations["previewModel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ai-providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** AI providers of the projects the caller may read (ai:read), and the instance-wide ones */
        get: operations["listAiProviders"];
        put?: never;
        /** Create an AI provider for a project (ai:write) or, without project_id, for the whole instance (administrators); the API key is write-only */
        post: operations["createAiProvider"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ai-providers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One AI provider, without its key (ai:read) */
        get: operations["getAiProvider"];
        put?: never;
        post?: never;
        /** Delete an AI provider and its usage record (ai:write) */
        delete: operations["deleteAiProvider"];
        options?: never;
        head?: never;
        /** Change an AI provider; api_key replaces the stored key, null removes it (ai:write) */
        patch: operations["updateAiProvider"];
        trace?: never;
    };
    "/api/v1/ai-providers/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ask the provider a fixed, tiny question; counted and audited like any call (ai:write) */
        post: operations["testAiProvider"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ai-providers/{id}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Requests in the last minute and tokens this month against the limits, and the latest calls (ai:read) */
        get: operations["getAiProviderUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ai-providers/{id}/draft-model": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Draft a warehouse model's SQL from a question and the project's warehouse schema; checked, not saved (ai:use, model:read) */
        post: operations["draftModelWithAi"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ai-providers/{id}/suggest-steps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Suggest pipeline transform steps from a description; checked against the step schema, not saved (ai:use) */
        post: operations["suggestStepsWithAi"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ai-providers/{id}/describe-dataset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Describe a catalog dataset and its columns (names and types go into the prompt); not saved (ai:use) */
        post: operations["describeDatasetWithAi"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notification-configs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Notification channels of the projects the caller may read (alert:read); administrators also see the instance's */
        get: operations["listNotificationConfigs"];
        put?: never;
        /** Create a channel: email, slack, teams, webhook or pagerduty; project_id null makes it instance-wide (administrators) (alert:write) */
        post: operations["createNotificationConfig"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notification-configs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One notification channel; secrets are never returned (alert:read) */
        get: operations["getNotificationConfig"];
        put?: never;
        post?: never;
        /** Delete a channel (alert:write) */
        delete: operations["deleteNotificationConfig"];
        options?: never;
        head?: never;
        /** Change a channel; settings left out keep their value, secrets included (alert:write) */
        patch: operations["updateNotificationConfig"];
        trace?: never;
    };
    "/api/v1/notification-configs/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a test message on the channel and report the remote answer (alert:write) */
        post: operations["testNotificationConfig"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/alert-rules/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How many rule items are firing and pending in the projects the caller may read (alert:read) */
        get: operations["getAlertSummary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/alert-rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Alert rules of the projects the caller may read, with the state of each watched item (alert:read) */
        get: operations["listAlertRules"];
        put?: never;
        /** Create a rule: run_failed, consecutive_failures, run_duration, freshness, cdc_lag or row_count, its scope, timing and channels (alert:write) */
        post: operations["createAlertRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/alert-rules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One alert rule with the state of each watched item (alert:read) */
        get: operations["getAlertRule"];
        put?: never;
        post?: never;
        /** Delete a rule with its states and history (alert:write) */
        delete: operations["deleteAlertRule"];
        options?: never;
        head?: never;
        /** Change a rule; muted_until silences it until then (alert:write) */
        patch: operations["updateAlertRule"];
        trace?: never;
    };
    "/api/v1/alert-rules/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A rule's history: each change of state per item, newest first, with its notifications (alert:read) */
        get: operations["listAlertRuleEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notification-settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's notification settings: per project, and for every project (project_id null) */
        get: operations["listNotificationSettings"];
        /** Set the caller's notifications of a project (alert:read there) or of every project: events, severity, e-mail, channels, quiet hours */
        put: operations["putNotificationSetting"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notification-settings/instance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The instance's notification defaults and the SMTP server of users' notifications (administrators) */
        get: operations["getInstanceNotificationSettings"];
        /** Change the defaults or the SMTP server of users' notifications; the password is write-only (administrators) */
        put: operations["putInstanceNotificationSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notification-settings/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove one of the caller's notification settings */
        delete: operations["deleteNotificationSetting"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** ErrorEnvelope */
        ErrorEnvelope: {
            detail: string;
            /** Format: uuid */
            request_id: string;
            reason?: string;
            required_capability?: string;
            /** Format: uuid */
            project_id?: string;
            /** Format: uuid */
            environment_id?: string | null;
            errors?: {
                path: string;
                message: string;
            }[];
        } & {
            [key: string]: unknown;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok" | "degraded";
                        version: string;
                        commit: string;
                        deps: {
                            /** @description "ok" when healthy, otherwise a short reason */
                            framework_db: string;
                            /** @description "ok" when healthy, otherwise a short reason */
                            redis: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok" | "degraded";
                        version: string;
                        commit: string;
                        deps: {
                            /** @description "ok" when healthy, otherwise a short reason */
                            framework_db: string;
                            /** @description "ok" when healthy, otherwise a short reason */
                            redis: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    username: string;
                    password: string;
                    /** @description Name of an LDAP provider to sign in with. Without it: the local account, else each enabled LDAP provider in order */
                    provider?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        access_token: string;
                        /** @enum {string} */
                        token_type: "Bearer";
                        /** @description Seconds until the access token expires */
                        expires_in: number;
                    } & {
                        password_change_required: boolean;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    refreshSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        access_token: string;
                        /** @enum {string} */
                        token_type: "Bearer";
                        /** @description Seconds until the access token expires */
                        expires_in: number;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        username: string;
                        email: string;
                        display_name: string | null;
                        is_admin: boolean;
                        disabled: boolean;
                        password_change_required: boolean;
                        auth_source: string;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email?: string;
                    display_name?: string | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        username: string;
                        email: string;
                        display_name: string | null;
                        is_admin: boolean;
                        disabled: boolean;
                        password_change_required: boolean;
                        auth_source: string;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    changeMyPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    current_password: string;
                    new_password: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listUsers: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            username: string;
                            email: string;
                            display_name: string | null;
                            is_admin: boolean;
                            disabled: boolean;
                            password_change_required: boolean;
                            auth_source: string;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    username: string;
                    /** Format: email */
                    email: string;
                    password: string;
                    display_name?: string;
                    is_admin?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        username: string;
                        email: string;
                        display_name: string | null;
                        is_admin: boolean;
                        disabled: boolean;
                        password_change_required: boolean;
                        auth_source: string;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        username: string;
                        email: string;
                        display_name: string | null;
                        is_admin: boolean;
                        disabled: boolean;
                        password_change_required: boolean;
                        auth_source: string;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email?: string;
                    display_name?: string | null;
                    is_admin?: boolean;
                    disabled?: boolean;
                    /** @description Sets a new password the user must change at next login */
                    password?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        username: string;
                        email: string;
                        display_name: string | null;
                        is_admin: boolean;
                        disabled: boolean;
                        password_change_required: boolean;
                        auth_source: string;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listApiTokens: {
        parameters: {
            query?: {
                user_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            user_id: string;
                            name: string;
                            scope: "read" | "write";
                            project_ids: string[] | null;
                            /** @description Last characters of the value, to recognise it */
                            suffix: string;
                            /** Format: date-time */
                            created_at: string;
                            expires_at: string | null;
                            last_used_at: string | null;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createApiToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    scope: "read" | "write";
                    project_ids?: string[];
                    /** Format: date-time */
                    expires_at?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        user_id: string;
                        name: string;
                        scope: "read" | "write";
                        project_ids: string[] | null;
                        /** @description Last characters of the value, to recognise it */
                        suffix: string;
                        /** Format: date-time */
                        created_at: string;
                        expires_at: string | null;
                        last_used_at: string | null;
                    } & {
                        /** @description The value: shown this once, never again */
                        token: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getApiToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        user_id: string;
                        name: string;
                        scope: "read" | "write";
                        project_ids: string[] | null;
                        /** @description Last characters of the value, to recognise it */
                        suffix: string;
                        /** Format: date-time */
                        created_at: string;
                        expires_at: string | null;
                        last_used_at: string | null;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    revokeApiToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listSsoProviders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            kind: "oidc" | "ldap";
                            name: string;
                            enabled: boolean;
                            position: number;
                            config: {
                                [key: string]: unknown;
                            };
                            /** @description Secret fields that hold a value (never the value) */
                            secrets_set: string[];
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createSsoProvider: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    enabled?: boolean;
                    /** @description LDAP: the order providers are tried in */
                    position?: number;
                    config: {
                        /**
                         * Format: uri
                         * @description Issuer URL; its /.well-known/openid-configuration is read
                         */
                        issuer: string;
                        client_id: string;
                        /** @description Write-only: encrypted at rest, never returned; omitted in a PATCH keeps it */
                        client_secret?: string;
                        /** @description Default openid, email, profile */
                        scopes?: string[];
                        /** @description Default preferred_username */
                        username_claim?: string;
                        /** @description Default email */
                        email_claim?: string;
                        /** @description Default groups */
                        groups_claim?: string;
                        /** @description When set, only these e-mail domains may sign in */
                        allowed_email_domains?: string[];
                        /** @description A member of `group` gets `role` in `project_id` at each sign-in */
                        group_mappings?: {
                            group: string;
                            /** Format: uuid */
                            project_id: string;
                            role: string;
                        }[];
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        kind: "oidc" | "ldap";
                        name: string;
                        enabled: boolean;
                        position: number;
                        config: {
                            [key: string]: unknown;
                        };
                        /** @description Secret fields that hold a value (never the value) */
                        secrets_set: string[];
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getSsoProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        kind: "oidc" | "ldap";
                        name: string;
                        enabled: boolean;
                        position: number;
                        config: {
                            [key: string]: unknown;
                        };
                        /** @description Secret fields that hold a value (never the value) */
                        secrets_set: string[];
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteSsoProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateSsoProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    enabled?: boolean;
                    position?: number;
                    config?: {
                        /**
                         * Format: uri
                         * @description Issuer URL; its /.well-known/openid-configuration is read
                         */
                        issuer: string;
                        client_id: string;
                        /** @description Write-only: encrypted at rest, never returned; omitted in a PATCH keeps it */
                        client_secret?: string;
                        /** @description Default openid, email, profile */
                        scopes?: string[];
                        /** @description Default preferred_username */
                        username_claim?: string;
                        /** @description Default email */
                        email_claim?: string;
                        /** @description Default groups */
                        groups_claim?: string;
                        /** @description When set, only these e-mail domains may sign in */
                        allowed_email_domains?: string[];
                        /** @description A member of `group` gets `role` in `project_id` at each sign-in */
                        group_mappings?: {
                            group: string;
                            /** Format: uuid */
                            project_id: string;
                            role: string;
                        }[];
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        kind: "oidc" | "ldap";
                        name: string;
                        enabled: boolean;
                        position: number;
                        config: {
                            [key: string]: unknown;
                        };
                        /** @description Secret fields that hold a value (never the value) */
                        secrets_set: string[];
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listLdapProviders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            kind: "oidc" | "ldap";
                            name: string;
                            enabled: boolean;
                            position: number;
                            config: {
                                [key: string]: unknown;
                            };
                            /** @description Secret fields that hold a value (never the value) */
                            secrets_set: string[];
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createLdapProvider: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    enabled?: boolean;
                    /** @description LDAP: the order providers are tried in */
                    position?: number;
                    config: {
                        /** @description ldap://host:port or ldaps://host:port */
                        url: string;
                        /** @description Upgrade an ldap:// connection with StartTLS */
                        start_tls: boolean;
                        /** @description PEM of the CA to trust (else the system CAs); certificates are always verified */
                        ca_pem?: string;
                        /** @description Service account that searches for users */
                        bind_dn?: string;
                        /** @description Write-only: encrypted at rest, never returned */
                        bind_password?: string;
                        user_base_dn: string;
                        /** @description e.g. (uid={username}); the login name is escaped */
                        user_filter: string;
                        username_attribute: string;
                        email_attribute: string;
                        /** @description Groups are searched here by member; else the user's memberOf */
                        group_base_dn?: string;
                        timeout_ms?: number;
                        /** @description A member of `group` gets `role` in `project_id` at each sign-in */
                        group_mappings?: {
                            group: string;
                            /** Format: uuid */
                            project_id: string;
                            role: string;
                        }[];
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        kind: "oidc" | "ldap";
                        name: string;
                        enabled: boolean;
                        position: number;
                        config: {
                            [key: string]: unknown;
                        };
                        /** @description Secret fields that hold a value (never the value) */
                        secrets_set: string[];
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getLdapProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        kind: "oidc" | "ldap";
                        name: string;
                        enabled: boolean;
                        position: number;
                        config: {
                            [key: string]: unknown;
                        };
                        /** @description Secret fields that hold a value (never the value) */
                        secrets_set: string[];
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteLdapProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateLdapProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    enabled?: boolean;
                    position?: number;
                    config?: {
                        /** @description ldap://host:port or ldaps://host:port */
                        url: string;
                        /** @description Upgrade an ldap:// connection with StartTLS */
                        start_tls: boolean;
                        /** @description PEM of the CA to trust (else the system CAs); certificates are always verified */
                        ca_pem?: string;
                        /** @description Service account that searches for users */
                        bind_dn?: string;
                        /** @description Write-only: encrypted at rest, never returned */
                        bind_password?: string;
                        user_base_dn: string;
                        /** @description e.g. (uid={username}); the login name is escaped */
                        user_filter: string;
                        username_attribute: string;
                        email_attribute: string;
                        /** @description Groups are searched here by member; else the user's memberOf */
                        group_base_dn?: string;
                        timeout_ms?: number;
                        /** @description A member of `group` gets `role` in `project_id` at each sign-in */
                        group_mappings?: {
                            group: string;
                            /** Format: uuid */
                            project_id: string;
                            role: string;
                        }[];
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        kind: "oidc" | "ldap";
                        name: string;
                        enabled: boolean;
                        position: number;
                        config: {
                            [key: string]: unknown;
                        };
                        /** @description Secret fields that hold a value (never the value) */
                        secrets_set: string[];
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    testLdapProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        ok: boolean;
                        reason?: string;
                        message?: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    ssoDiscovery: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        providers: {
                            /** Format: uuid */
                            id: string;
                            name: string;
                            start_path: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    ssoStart: {
        parameters: {
            query?: {
                /** @description A path of this service to land on afterwards (default /) */
                redirect_to?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the provider */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    ssoCallback: {
        parameters: {
            query?: {
                code?: string;
                state?: string;
                error?: string;
                error_description?: string;
                iss?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the web UI, signed in */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listProjects: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            name: string;
                            description: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createProject: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    description?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        description: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        description: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    description?: string | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        description: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listEnvironments: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            project_id: string;
                            name: string;
                            /** Format: date-time */
                            created_at: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createEnvironment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        /** Format: date-time */
                        created_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listMembers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            user_id: string;
                            username: string;
                            role: string;
                            environment_ids: string[] | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    putMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A role name: owner, editor, viewer or a custom role */
                    role: string;
                    environment_ids?: string[] | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        user_id: string;
                        username: string;
                        role: string;
                        environment_ids: string[] | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    removeMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listRoles: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            name: string;
                            description: string | null;
                            capabilities: string[];
                            built_in: boolean;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createRole: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    description?: string;
                    capabilities: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        description: string | null;
                        capabilities: string[];
                        built_in: boolean;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        description: string | null;
                        capabilities: string[];
                        built_in: boolean;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    description?: string | null;
                    capabilities?: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        description: string | null;
                        capabilities: string[];
                        built_in: boolean;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getLicense: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        state: "unlicensed" | "licensed" | "expired";
                        customer: string | null;
                        seats: number | null;
                        features: string[];
                        expires_at: string | null;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    putLicense: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    license: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        state: "unlicensed" | "licensed" | "expired";
                        customer: string | null;
                        seats: number | null;
                        features: string[];
                        expires_at: string | null;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listConnectorKinds: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            kind: string;
                            title: string;
                            version: number;
                            /** @description JSON Schema of the configuration; secret fields carry "x-secret": true */
                            spec: {
                                [key: string]: unknown;
                            };
                            capabilities: {
                                read: boolean;
                                write: boolean;
                                writeModes: string[];
                                /** @description Message brokers: the start positions a stream of this kind may take */
                                stream?: {
                                    starts: string[];
                                };
                            };
                            secret_fields: string[];
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listDataConnectors: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            project_id: string;
                            environment_id: string | null;
                            name: string;
                            kind: string;
                            /** @description The configuration without its secret fields */
                            config: {
                                [key: string]: unknown;
                            };
                            /** @description Names of the secret fields that hold a value (never the values) */
                            secrets_set: string[];
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createDataConnector: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    project_id: string;
                    environment_id?: string | null;
                    name: string;
                    kind: string;
                    /** @description Fields of the kind's spec (GET /data-connectors/kinds) */
                    config: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        environment_id: string | null;
                        name: string;
                        kind: string;
                        /** @description The configuration without its secret fields */
                        config: {
                            [key: string]: unknown;
                        };
                        /** @description Names of the secret fields that hold a value (never the values) */
                        secrets_set: string[];
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getDataConnector: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        environment_id: string | null;
                        name: string;
                        kind: string;
                        /** @description The configuration without its secret fields */
                        config: {
                            [key: string]: unknown;
                        };
                        /** @description Names of the secret fields that hold a value (never the values) */
                        secrets_set: string[];
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteDataConnector: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateDataConnector: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    environment_id?: string | null;
                    /** @description Fields to change; omitted fields (secrets too) keep their value; null removes a field */
                    config?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        environment_id: string | null;
                        name: string;
                        kind: string;
                        /** @description The configuration without its secret fields */
                        config: {
                            [key: string]: unknown;
                        };
                        /** @description Names of the secret fields that hold a value (never the values) */
                        secrets_set: string[];
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    testDataConnector: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        ok: boolean;
                        /** @description auth_failed, unreachable, timeout, missing_privilege, not_found, ... */
                        code?: string;
                        message?: string;
                        detail?: string;
                        duration_ms: number;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    discoverDataConnector: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        datasets: {
                            namespace: string | null;
                            name: string;
                            columns: number;
                            primary_key: string[];
                            row_estimate: number | null;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listCatalogDatasets: {
        parameters: {
            query?: {
                connector_id?: string;
                project_id?: string;
                /** @description In the name, namespace or description */
                q?: string;
                /** @description On the dataset or one of its columns */
                tag?: string;
                /** @description Has a column of this name */
                column?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            connector_id: string;
                            /** Format: uuid */
                            project_id: string;
                            namespace: string | null;
                            name: string;
                            primary_key: string[];
                            row_estimate: number | null;
                            /** Format: date-time */
                            discovered_at: string;
                            description: string | null;
                            owners: string[];
                            tags: string[];
                            /** @description When a run (sync, pipeline, CDC, stream, model run) last wrote into it, from lineage */
                            last_written_at: string | null;
                            /** @description Rows that run wrote */
                            last_row_count: number | null;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getCatalogDataset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        connector_id: string;
                        /** Format: uuid */
                        project_id: string;
                        namespace: string | null;
                        name: string;
                        primary_key: string[];
                        row_estimate: number | null;
                        /** Format: date-time */
                        discovered_at: string;
                        description: string | null;
                        owners: string[];
                        tags: string[];
                        /** @description When a run (sync, pipeline, CDC, stream, model run) last wrote into it, from lineage */
                        last_written_at: string | null;
                        /** @description Rows that run wrote */
                        last_row_count: number | null;
                    } & {
                        columns: {
                            position: number;
                            name: string;
                            /** @description Canonical type */
                            type: string;
                            source_type: string;
                            nullable: boolean;
                            precision: number | null;
                            scale: number | null;
                            description: string | null;
                            tags: string[];
                            suggested_tags: string[];
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateCatalogDataset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string | null;
                    /** @description Who answers for the dataset: user names, e-mail addresses or team names */
                    owners?: string[];
                    tags?: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        connector_id: string;
                        /** Format: uuid */
                        project_id: string;
                        namespace: string | null;
                        name: string;
                        primary_key: string[];
                        row_estimate: number | null;
                        /** Format: date-time */
                        discovered_at: string;
                        description: string | null;
                        owners: string[];
                        tags: string[];
                        /** @description When a run (sync, pipeline, CDC, stream, model run) last wrote into it, from lineage */
                        last_written_at: string | null;
                        /** @description Rows that run wrote */
                        last_row_count: number | null;
                    } & {
                        columns: {
                            position: number;
                            name: string;
                            /** @description Canonical type */
                            type: string;
                            source_type: string;
                            nullable: boolean;
                            precision: number | null;
                            scale: number | null;
                            description: string | null;
                            tags: string[];
                            suggested_tags: string[];
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateCatalogColumn: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                column: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string | null;
                    tags?: string[];
                    /** @description Suggested tags turned down */
                    dismiss?: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        connector_id: string;
                        /** Format: uuid */
                        project_id: string;
                        namespace: string | null;
                        name: string;
                        primary_key: string[];
                        row_estimate: number | null;
                        /** Format: date-time */
                        discovered_at: string;
                        description: string | null;
                        owners: string[];
                        tags: string[];
                        /** @description When a run (sync, pipeline, CDC, stream, model run) last wrote into it, from lineage */
                        last_written_at: string | null;
                        /** @description Rows that run wrote */
                        last_row_count: number | null;
                    } & {
                        columns: {
                            position: number;
                            name: string;
                            /** @description Canonical type */
                            type: string;
                            source_type: string;
                            nullable: boolean;
                            precision: number | null;
                            scale: number | null;
                            description: string | null;
                            tags: string[];
                            suggested_tags: string[];
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    classifyCatalogDataset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": ({
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        connector_id: string;
                        /** Format: uuid */
                        project_id: string;
                        namespace: string | null;
                        name: string;
                        primary_key: string[];
                        row_estimate: number | null;
                        /** Format: date-time */
                        discovered_at: string;
                        description: string | null;
                        owners: string[];
                        tags: string[];
                        /** @description When a run (sync, pipeline, CDC, stream, model run) last wrote into it, from lineage */
                        last_written_at: string | null;
                        /** @description Rows that run wrote */
                        last_row_count: number | null;
                    } & {
                        columns: {
                            position: number;
                            name: string;
                            /** @description Canonical type */
                            type: string;
                            source_type: string;
                            nullable: boolean;
                            precision: number | null;
                            scale: number | null;
                            description: string | null;
                            tags: string[];
                            suggested_tags: string[];
                        }[];
                    }) & {
                        /** @description Rows read for the classification (not kept) */
                        sampled_rows: number;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listLineageEvents: {
        parameters: {
            query?: {
                project_id?: string;
                run_id?: string;
                job_id?: string;
                dataset_id?: string;
                event_type?: "START" | "COMPLETE" | "FAIL" | "ABORT";
                /** @description Events after this id */
                after?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** @description Position in the feed (for `after`) */
                            id: string;
                            /** Format: uuid */
                            project_id: string;
                            /** Format: uuid */
                            run_id: string;
                            event_type: string;
                            /** Format: date-time */
                            event_time: string;
                            /** @description The OpenLineage 2-0-2 RunEvent */
                            event: unknown;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getLineageGraph: {
        parameters: {
            query: {
                /** @description dataset:<id>, job:<id>, item:<id> (the jobs of a pipeline, export...) or catalog:<catalog dataset id> */
                node: string;
                direction?: "upstream" | "downstream" | "both";
                depth?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        project_id: string;
                        roots: string[];
                        nodes: {
                            /** @description dataset:<id> or job:<id> */
                            id: string;
                            type: "dataset" | "job";
                            /** Format: uuid */
                            project_id: string;
                            namespace: string;
                            name: string;
                            connector_id: string | null;
                            source_namespace: string | null;
                            source_name: string | null;
                            kind: string | null;
                            item_id: string | null;
                        }[];
                        edges: {
                            from: string;
                            to: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getColumnLineage: {
        parameters: {
            query: {
                dataset: string;
                column: string;
                depth?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            dataset_id: string;
                            namespace: string;
                            name: string;
                            field: string;
                            level: number;
                            inputs: {
                                dataset_id: string | null;
                                namespace: string;
                                name: string;
                                field: string;
                                transformations: unknown[];
                            }[];
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getLineageForwarding: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        enabled: boolean;
                        url: string | null;
                        has_api_key: boolean;
                        last_forwarded_at: string | null;
                        last_error: string | null;
                        last_error_at: string | null;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateLineageForwarding: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    enabled: boolean;
                    url?: string | null;
                    api_key?: string | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        enabled: boolean;
                        url: string | null;
                        has_api_key: boolean;
                        last_forwarded_at: string | null;
                        last_error: string | null;
                        last_error_at: string | null;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listRetentionTargetKinds: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            kind: string;
                            scope: "project" | "instance";
                            description: string;
                            histories: boolean;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listRetentionPolicys: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            project_id: string | null;
                            name: string;
                            target: {
                                [key: string]: unknown;
                            };
                            max_age: string;
                            max_age_seconds: number;
                            max_rows: number | null;
                            keep_last_failed: number;
                            cron: string | null;
                            timezone: string;
                            interval_seconds: number | null;
                            next_run_at: string | null;
                            created_by: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createRetentionPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Required unless the target is instance-wide */
                    project_id?: string | null;
                    name: string;
                    /** @description What the policy prunes: `kind` and that kind's own fields */
                    target: {
                        /** @description warehouse_table (with schema, table, timestamp_column, action), execution_history, execution_logs, audit_events (instance-wide, administrators only); later areas add theirs (docs/retention.md) */
                        kind: string;
                    } & {
                        [key: string]: unknown;
                    };
                    /** @description A number and a unit: s, m, h, d (days) or w (weeks), e.g. 30d */
                    max_age: string;
                    max_rows?: number | null;
                    /** @description Histories: the newest failed runs kept whatever their age */
                    keep_last_failed?: number;
                    cron?: string | null;
                    /** @description IANA time zone (default UTC) */
                    timezone?: string;
                    interval_seconds?: number | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        project_id: string | null;
                        name: string;
                        target: {
                            [key: string]: unknown;
                        };
                        max_age: string;
                        max_age_seconds: number;
                        max_rows: number | null;
                        keep_last_failed: number;
                        cron: string | null;
                        timezone: string;
                        interval_seconds: number | null;
                        next_run_at: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getRetentionPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        project_id: string | null;
                        name: string;
                        target: {
                            [key: string]: unknown;
                        };
                        max_age: string;
                        max_age_seconds: number;
                        max_rows: number | null;
                        keep_last_failed: number;
                        cron: string | null;
                        timezone: string;
                        interval_seconds: number | null;
                        next_run_at: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteRetentionPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateRetentionPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /** @description What the policy prunes: `kind` and that kind's own fields */
                    target?: {
                        /** @description warehouse_table (with schema, table, timestamp_column, action), execution_history, execution_logs, audit_events (instance-wide, administrators only); later areas add theirs (docs/retention.md) */
                        kind: string;
                    } & {
                        [key: string]: unknown;
                    };
                    /** @description A number and a unit: s, m, h, d (days) or w (weeks), e.g. 30d */
                    max_age?: string;
                    max_rows?: number | null;
                    /** @description Histories: the newest failed runs kept whatever their age */
                    keep_last_failed?: number;
                    cron?: string | null;
                    /** @description IANA time zone (default UTC) */
                    timezone?: string;
                    interval_seconds?: number | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        project_id: string | null;
                        name: string;
                        target: {
                            [key: string]: unknown;
                        };
                        max_age: string;
                        max_age_seconds: number;
                        max_rows: number | null;
                        keep_last_failed: number;
                        cron: string | null;
                        timezone: string;
                        interval_seconds: number | null;
                        next_run_at: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    previewRetentionPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        policy_id: string;
                        /** Format: date-time */
                        cutoff: string;
                        /** @description Rows per table (deleted children before their parents) */
                        counts: {
                            [key: string]: number;
                        };
                        total: number;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    runRetentionPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        policy_id: string;
                        project_id: string | null;
                        execution_id: string | null;
                        trigger: "manual" | "schedule";
                        status: "queued" | "running" | "succeeded" | "failed";
                        cutoff: string | null;
                        /** @description Rows per table (deleted children before their parents) */
                        counts: {
                            [key: string]: number;
                        };
                        total: number;
                        batches: number;
                        details: {
                            [key: string]: unknown;
                        };
                        error: string | null;
                        /** Format: date-time */
                        created_at: string;
                        started_at: string | null;
                        finished_at: string | null;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listRetentionSweeps: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            policy_id: string;
                            project_id: string | null;
                            execution_id: string | null;
                            trigger: "manual" | "schedule";
                            status: "queued" | "running" | "succeeded" | "failed";
                            cutoff: string | null;
                            /** @description Rows per table (deleted children before their parents) */
                            counts: {
                                [key: string]: number;
                            };
                            total: number;
                            batches: number;
                            details: {
                                [key: string]: unknown;
                            };
                            error: string | null;
                            /** Format: date-time */
                            created_at: string;
                            started_at: string | null;
                            finished_at: string | null;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    evaluateMaskingPolicies: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    project_id: string;
                    columns: {
                        name: string;
                        type?: string;
                        /** @description Tags */
                        tags?: string[];
                    }[];
                    rows: unknown[][];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        masked: {
                            [key: string]: {
                                policy: string;
                                method: string;
                            };
                        };
                        rows: unknown[][];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listMaskingPolicys: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            project_id: string;
                            name: string;
                            /** @description full (a constant of the column type), partial (keep first/last N characters), hash (keyed HMAC, deterministic per project), null, regex_replace, email_domain */
                            method: "full" | "partial" | "hash" | "null" | "regex_replace" | "email_domain";
                            options: {
                                [key: string]: unknown;
                            };
                            columns: string[];
                            tags: string[];
                            exempt: {
                                capabilities: string[];
                                roles: string[];
                            };
                            created_by: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createMaskingPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    project_id: string;
                    name: string;
                    /** @description full (a constant of the column type), partial (keep first/last N characters), hash (keyed HMAC, deterministic per project), null, regex_replace, email_domain */
                    method: "full" | "partial" | "hash" | "null" | "regex_replace" | "email_domain";
                    options?: {
                        /** @description partial: characters kept at the start (default 0) */
                        keep_first?: number;
                        /** @description partial: characters kept at the end (default 4) */
                        keep_last?: number;
                        /** @description regex_replace: what each match replaces */
                        pattern?: string;
                        /** @description regex_replace: literal text put in place of each match (default ****) */
                        replacement?: string;
                    };
                    /** @description Column names it covers, in every dataset (case does not matter) */
                    columns?: string[];
                    /** @description Catalog tags: it covers every column carrying one */
                    tags?: string[];
                    exempt?: {
                        /** @description Holders of any of these capabilities in the project see clear values (default data:read_unmasked) */
                        capabilities?: string[];
                        /** @description Members with one of these roles see clear values */
                        roles?: string[];
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        /** @description full (a constant of the column type), partial (keep first/last N characters), hash (keyed HMAC, deterministic per project), null, regex_replace, email_domain */
                        method: "full" | "partial" | "hash" | "null" | "regex_replace" | "email_domain";
                        options: {
                            [key: string]: unknown;
                        };
                        columns: string[];
                        tags: string[];
                        exempt: {
                            capabilities: string[];
                            roles: string[];
                        };
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMaskingPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        /** @description full (a constant of the column type), partial (keep first/last N characters), hash (keyed HMAC, deterministic per project), null, regex_replace, email_domain */
                        method: "full" | "partial" | "hash" | "null" | "regex_replace" | "email_domain";
                        options: {
                            [key: string]: unknown;
                        };
                        columns: string[];
                        tags: string[];
                        exempt: {
                            capabilities: string[];
                            roles: string[];
                        };
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteMaskingPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateMaskingPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /** @description full (a constant of the column type), partial (keep first/last N characters), hash (keyed HMAC, deterministic per project), null, regex_replace, email_domain */
                    method?: "full" | "partial" | "hash" | "null" | "regex_replace" | "email_domain";
                    options?: {
                        /** @description partial: characters kept at the start (default 0) */
                        keep_first?: number;
                        /** @description partial: characters kept at the end (default 4) */
                        keep_last?: number;
                        /** @description regex_replace: what each match replaces */
                        pattern?: string;
                        /** @description regex_replace: literal text put in place of each match (default ****) */
                        replacement?: string;
                    };
                    /** @description Column names */
                    columns?: string[];
                    /** @description Catalog tags */
                    tags?: string[];
                    exempt?: {
                        /** @description Holders of any of these capabilities in the project see clear values (default data:read_unmasked) */
                        capabilities?: string[];
                        /** @description Members with one of these roles see clear values */
                        roles?: string[];
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        /** @description full (a constant of the column type), partial (keep first/last N characters), hash (keyed HMAC, deterministic per project), null, regex_replace, email_domain */
                        method: "full" | "partial" | "hash" | "null" | "regex_replace" | "email_domain";
                        options: {
                            [key: string]: unknown;
                        };
                        columns: string[];
                        tags: string[];
                        exempt: {
                            capabilities: string[];
                            roles: string[];
                        };
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listExecutions: {
        parameters: {
            query?: {
                status?: "queued" | "running" | "succeeded" | "partially_failed" | "failed" | "cancelled";
                kind?: string;
                pipeline_id?: string;
                project_id?: string;
                since?: string;
                until?: string;
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            project_id: string;
                            kind: string;
                            status: "queued" | "running" | "succeeded" | "partially_failed" | "failed" | "cancelled";
                            params: {
                                [key: string]: unknown;
                            };
                            created_by: string | null;
                            /** Format: date-time */
                            created_at: string;
                            started_at: string | null;
                            finished_at: string | null;
                            duration_ms: number | null;
                            attempts: number;
                            rows_read: number;
                            rows_written: number;
                            /** @description Bytes of the source data: the bulk stream when there is one, else an estimate from the values */
                            bytes_read: number;
                            /** @description Bytes the destination was sent, as its connector reports them */
                            bytes_written: number;
                            error: string | null;
                            cancel_requested: boolean;
                            retry_of: string | null;
                            /** @description Pipeline runs: the pipeline */
                            pipeline_id: string | null;
                            /** @description Pipeline runs started by a schedule: the schedule */
                            schedule_id: string | null;
                            /** @description Pipeline runs: what started the run */
                            trigger: "manual" | "schedule" | "dependency" | "retry" | null;
                            /** @description Pipeline runs: the first execution of the cascade of dependent pipelines this run belongs to */
                            dag_run_id: string | null;
                            /** @description The detail of a queued or running execution only: its rate and an estimate of the time left */
                            progress?: {
                                /** @description Rows read per second since the run started; null before it starts */
                                rows_per_second: number | null;
                                /** @description Rows the latest succeeded run of the same item read: what this one is expected to read; null when none succeeded */
                                rows_expected: number | null;
                                /** @description Estimated time left at the current rate, from rows_expected; null without an estimate or once past it */
                                seconds_left: number | null;
                            };
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    startExecution: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    kind: "sync";
                    /** Format: uuid */
                    project_id: string;
                    /** Format: uuid */
                    source_connector_id: string;
                    /** Format: uuid */
                    destination_connector_id: string;
                    destination_namespace?: string | null;
                    streams: {
                        namespace?: string | null;
                        name: string;
                        destination_name?: string;
                        mode: "append" | "overwrite" | "upsert";
                        key_columns?: string[];
                        /** @description Incremental: only rows past the cursor saved by the previous run */
                        cursor_column?: string;
                        /** @description Copy in this many key ranges in parallel, each its own job, resumed on its own (append or upsert) */
                        ranges?: number;
                        /** @description Integer column the ranges split (with ranges) */
                        range_column?: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        kind: string;
                        status: "queued" | "running" | "succeeded" | "partially_failed" | "failed" | "cancelled";
                        params: {
                            [key: string]: unknown;
                        };
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        started_at: string | null;
                        finished_at: string | null;
                        duration_ms: number | null;
                        attempts: number;
                        rows_read: number;
                        rows_written: number;
                        /** @description Bytes of the source data: the bulk stream when there is one, else an estimate from the values */
                        bytes_read: number;
                        /** @description Bytes the destination was sent, as its connector reports them */
                        bytes_written: number;
                        error: string | null;
                        cancel_requested: boolean;
                        retry_of: string | null;
                        /** @description Pipeline runs: the pipeline */
                        pipeline_id: string | null;
                        /** @description Pipeline runs started by a schedule: the schedule */
                        schedule_id: string | null;
                        /** @description Pipeline runs: what started the run */
                        trigger: "manual" | "schedule" | "dependency" | "retry" | null;
                        /** @description Pipeline runs: the first execution of the cascade of dependent pipelines this run belongs to */
                        dag_run_id: string | null;
                        /** @description The detail of a queued or running execution only: its rate and an estimate of the time left */
                        progress?: {
                            /** @description Rows read per second since the run started; null before it starts */
                            rows_per_second: number | null;
                            /** @description Rows the latest succeeded run of the same item read: what this one is expected to read; null when none succeeded */
                            rows_expected: number | null;
                            /** @description Estimated time left at the current rate, from rows_expected; null without an estimate or once past it */
                            seconds_left: number | null;
                        };
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    cancelExecutions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    status?: "queued" | "running" | "succeeded" | "partially_failed" | "failed" | "cancelled";
                    kind?: string;
                    /** Format: uuid */
                    pipeline_id?: string;
                    /** Format: uuid */
                    project_id?: string;
                    /** Format: date-time */
                    since?: string;
                    /** Format: date-time */
                    until?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        cancelled: number;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getExecution: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        kind: string;
                        status: "queued" | "running" | "succeeded" | "partially_failed" | "failed" | "cancelled";
                        params: {
                            [key: string]: unknown;
                        };
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        started_at: string | null;
                        finished_at: string | null;
                        duration_ms: number | null;
                        attempts: number;
                        rows_read: number;
                        rows_written: number;
                        /** @description Bytes of the source data: the bulk stream when there is one, else an estimate from the values */
                        bytes_read: number;
                        /** @description Bytes the destination was sent, as its connector reports them */
                        bytes_written: number;
                        error: string | null;
                        cancel_requested: boolean;
                        retry_of: string | null;
                        /** @description Pipeline runs: the pipeline */
                        pipeline_id: string | null;
                        /** @description Pipeline runs started by a schedule: the schedule */
                        schedule_id: string | null;
                        /** @description Pipeline runs: what started the run */
                        trigger: "manual" | "schedule" | "dependency" | "retry" | null;
                        /** @description Pipeline runs: the first execution of the cascade of dependent pipelines this run belongs to */
                        dag_run_id: string | null;
                        /** @description The detail of a queued or running execution only: its rate and an estimate of the time left */
                        progress?: {
                            /** @description Rows read per second since the run started; null before it starts */
                            rows_per_second: number | null;
                            /** @description Rows the latest succeeded run of the same item read: what this one is expected to read; null when none succeeded */
                            rows_expected: number | null;
                            /** @description Estimated time left at the current rate, from rows_expected; null without an estimate or once past it */
                            seconds_left: number | null;
                        };
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getExecutionLogs: {
        parameters: {
            query?: {
                after_id?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            id: string;
                            /** Format: date-time */
                            ts: string;
                            level: string;
                            message: string;
                            fields: {
                                [key: string]: unknown;
                            };
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    cancelExecution: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        kind: string;
                        status: "queued" | "running" | "succeeded" | "partially_failed" | "failed" | "cancelled";
                        params: {
                            [key: string]: unknown;
                        };
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        started_at: string | null;
                        finished_at: string | null;
                        duration_ms: number | null;
                        attempts: number;
                        rows_read: number;
                        rows_written: number;
                        /** @description Bytes of the source data: the bulk stream when there is one, else an estimate from the values */
                        bytes_read: number;
                        /** @description Bytes the destination was sent, as its connector reports them */
                        bytes_written: number;
                        error: string | null;
                        cancel_requested: boolean;
                        retry_of: string | null;
                        /** @description Pipeline runs: the pipeline */
                        pipeline_id: string | null;
                        /** @description Pipeline runs started by a schedule: the schedule */
                        schedule_id: string | null;
                        /** @description Pipeline runs: what started the run */
                        trigger: "manual" | "schedule" | "dependency" | "retry" | null;
                        /** @description Pipeline runs: the first execution of the cascade of dependent pipelines this run belongs to */
                        dag_run_id: string | null;
                        /** @description The detail of a queued or running execution only: its rate and an estimate of the time left */
                        progress?: {
                            /** @description Rows read per second since the run started; null before it starts */
                            rows_per_second: number | null;
                            /** @description Rows the latest succeeded run of the same item read: what this one is expected to read; null when none succeeded */
                            rows_expected: number | null;
                            /** @description Estimated time left at the current rate, from rows_expected; null without an estimate or once past it */
                            seconds_left: number | null;
                        };
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    retryExecution: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        kind: string;
                        status: "queued" | "running" | "succeeded" | "partially_failed" | "failed" | "cancelled";
                        params: {
                            [key: string]: unknown;
                        };
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        started_at: string | null;
                        finished_at: string | null;
                        duration_ms: number | null;
                        attempts: number;
                        rows_read: number;
                        rows_written: number;
                        /** @description Bytes of the source data: the bulk stream when there is one, else an estimate from the values */
                        bytes_read: number;
                        /** @description Bytes the destination was sent, as its connector reports them */
                        bytes_written: number;
                        error: string | null;
                        cancel_requested: boolean;
                        retry_of: string | null;
                        /** @description Pipeline runs: the pipeline */
                        pipeline_id: string | null;
                        /** @description Pipeline runs started by a schedule: the schedule */
                        schedule_id: string | null;
                        /** @description Pipeline runs: what started the run */
                        trigger: "manual" | "schedule" | "dependency" | "retry" | null;
                        /** @description Pipeline runs: the first execution of the cascade of dependent pipelines this run belongs to */
                        dag_run_id: string | null;
                        /** @description The detail of a queued or running execution only: its rate and an estimate of the time left */
                        progress?: {
                            /** @description Rows read per second since the run started; null before it starts */
                            rows_per_second: number | null;
                            /** @description Rows the latest succeeded run of the same item read: what this one is expected to read; null when none succeeded */
                            rows_expected: number | null;
                            /** @description Estimated time left at the current rate, from rows_expected; null without an estimate or once past it */
                            seconds_left: number | null;
                        };
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getOverview: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        generated_at: string;
                        days: string[];
                        projects: {
                            /** Format: uuid */
                            project_id: string;
                            project_name: string;
                            /** @description null where the caller may not read that kind of resource in the project */
                            counts: {
                                connectors: number | null;
                                pipelines: number | null;
                                cdc_tables: number | null;
                                schedules: number | null;
                            };
                            /** @description Executions created in the last 24 hours, by status now */
                            executions_24h: {
                                queued: number;
                                running: number;
                                succeeded: number;
                                partially_failed: number;
                                failed: number;
                                cancelled: number;
                            };
                            /** @description Rows written by succeeded executions, by UTC day of finish, the last 14 days */
                            rows_per_day: {
                                /** Format: date */
                                day: string;
                                rows: number;
                            }[];
                            /** @description Pipelines whose latest execution failed */
                            failing: {
                                /** @enum {string} */
                                type: "pipeline";
                                /** Format: uuid */
                                id: string;
                                name: string;
                                /** Format: uuid */
                                execution_id: string;
                                error: string | null;
                                failed_at: string | null;
                            }[];
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listPipelines: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            project_id: string;
                            name: string;
                            description: string;
                            sources: {
                                name: string;
                                /** Format: uuid */
                                connector_id: string;
                                namespace: string | null;
                                dataset: string | null;
                                query: string | null;
                                cursor_column: string | null;
                            }[];
                            transforms: {
                                [key: string]: unknown;
                            }[];
                            destination: {
                                /** Format: uuid */
                                connector_id: string;
                                namespace: string | null;
                                table: string;
                                mode: string;
                                key_columns: string[];
                            };
                            depends_on: string[];
                            version: number;
                            created_by: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createPipeline: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    project_id: string;
                    name: string;
                    description?: string;
                    sources: {
                        /** @description Unique in the pipeline; the key of its incremental state. Default: the dataset */
                        name?: string;
                        /** Format: uuid */
                        connector_id: string;
                        /** @description Schema, database or folder; the connector's own when omitted */
                        namespace?: string | null;
                        /** @description Table, file dataset (see the files connector's pattern) or API endpoint */
                        dataset?: string;
                        /** @description PostgreSQL connectors: a SELECT read instead of a dataset (needs name) */
                        query?: string;
                        /** @description Incremental: each run reads only rows past the cursor the previous run saved */
                        cursor_column?: string;
                    }[];
                    transforms?: ({
                        /**
                         * @description docs/transforms.md lists each step's fields. Cast types: boolean, int16, int32, int64, float32, float64, decimal, string, uuid, date, time, timestamp, timestamptz, json, binary
                         * @enum {string}
                         */
                        type: "select" | "drop" | "rename" | "cast" | "filter" | "derive" | "deduplicate" | "flatten" | "mask";
                    } & {
                        [key: string]: unknown;
                    })[];
                    destination: {
                        /** Format: uuid */
                        connector_id: string;
                        namespace?: string | null;
                        table: string;
                        mode: "append" | "overwrite" | "upsert";
                        key_columns?: string[];
                    };
                    /** @description Pipelines that must succeed first: a successful run of each starts this one */
                    depends_on?: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        description: string;
                        sources: {
                            name: string;
                            /** Format: uuid */
                            connector_id: string;
                            namespace: string | null;
                            dataset: string | null;
                            query: string | null;
                            cursor_column: string | null;
                        }[];
                        transforms: {
                            [key: string]: unknown;
                        }[];
                        destination: {
                            /** Format: uuid */
                            connector_id: string;
                            namespace: string | null;
                            table: string;
                            mode: string;
                            key_columns: string[];
                        };
                        depends_on: string[];
                        version: number;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getPipeline: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        description: string;
                        sources: {
                            name: string;
                            /** Format: uuid */
                            connector_id: string;
                            namespace: string | null;
                            dataset: string | null;
                            query: string | null;
                            cursor_column: string | null;
                        }[];
                        transforms: {
                            [key: string]: unknown;
                        }[];
                        destination: {
                            /** Format: uuid */
                            connector_id: string;
                            namespace: string | null;
                            table: string;
                            mode: string;
                            key_columns: string[];
                        };
                        depends_on: string[];
                        version: number;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deletePipeline: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updatePipeline: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    description?: string;
                    sources?: {
                        /** @description Unique in the pipeline; the key of its incremental state. Default: the dataset */
                        name?: string;
                        /** Format: uuid */
                        connector_id: string;
                        /** @description Schema, database or folder; the connector's own when omitted */
                        namespace?: string | null;
                        /** @description Table, file dataset (see the files connector's pattern) or API endpoint */
                        dataset?: string;
                        /** @description PostgreSQL connectors: a SELECT read instead of a dataset (needs name) */
                        query?: string;
                        /** @description Incremental: each run reads only rows past the cursor the previous run saved */
                        cursor_column?: string;
                    }[];
                    transforms?: ({
                        /**
                         * @description docs/transforms.md lists each step's fields. Cast types: boolean, int16, int32, int64, float32, float64, decimal, string, uuid, date, time, timestamp, timestamptz, json, binary
                         * @enum {string}
                         */
                        type: "select" | "drop" | "rename" | "cast" | "filter" | "derive" | "deduplicate" | "flatten" | "mask";
                    } & {
                        [key: string]: unknown;
                    })[];
                    destination?: {
                        /** Format: uuid */
                        connector_id: string;
                        namespace?: string | null;
                        table: string;
                        mode: "append" | "overwrite" | "upsert";
                        key_columns?: string[];
                    };
                    depends_on?: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        description: string;
                        sources: {
                            name: string;
                            /** Format: uuid */
                            connector_id: string;
                            namespace: string | null;
                            dataset: string | null;
                            query: string | null;
                            cursor_column: string | null;
                        }[];
                        transforms: {
                            [key: string]: unknown;
                        }[];
                        destination: {
                            /** Format: uuid */
                            connector_id: string;
                            namespace: string | null;
                            table: string;
                            mode: string;
                            key_columns: string[];
                        };
                        depends_on: string[];
                        version: number;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    runPipeline: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        kind: string;
                        status: "queued" | "running" | "succeeded" | "partially_failed" | "failed" | "cancelled";
                        params: {
                            [key: string]: unknown;
                        };
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        started_at: string | null;
                        finished_at: string | null;
                        duration_ms: number | null;
                        attempts: number;
                        rows_read: number;
                        rows_written: number;
                        /** @description Bytes of the source data: the bulk stream when there is one, else an estimate from the values */
                        bytes_read: number;
                        /** @description Bytes the destination was sent, as its connector reports them */
                        bytes_written: number;
                        error: string | null;
                        cancel_requested: boolean;
                        retry_of: string | null;
                        /** @description Pipeline runs: the pipeline */
                        pipeline_id: string | null;
                        /** @description Pipeline runs started by a schedule: the schedule */
                        schedule_id: string | null;
                        /** @description Pipeline runs: what started the run */
                        trigger: "manual" | "schedule" | "dependency" | "retry" | null;
                        /** @description Pipeline runs: the first execution of the cascade of dependent pipelines this run belongs to */
                        dag_run_id: string | null;
                        /** @description The detail of a queued or running execution only: its rate and an estimate of the time left */
                        progress?: {
                            /** @description Rows read per second since the run started; null before it starts */
                            rows_per_second: number | null;
                            /** @description Rows the latest succeeded run of the same item read: what this one is expected to read; null when none succeeded */
                            rows_expected: number | null;
                            /** @description Estimated time left at the current rate, from rows_expected; null without an estimate or once past it */
                            seconds_left: number | null;
                        };
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    previewPipeline: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Rows read from each stream (default 100) */
                    limit?: number;
                    /** @description Try these steps instead of the saved ones (nothing is saved) */
                    transforms?: ({
                        /**
                         * @description docs/transforms.md lists each step's fields. Cast types: boolean, int16, int32, int64, float32, float64, decimal, string, uuid, date, time, timestamp, timestamptz, json, binary
                         * @enum {string}
                         */
                        type: "select" | "drop" | "rename" | "cast" | "filter" | "derive" | "deduplicate" | "flatten" | "mask";
                    } & {
                        [key: string]: unknown;
                    })[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The inferred output schema: what the destination table gets */
                        columns: {
                            name: string;
                            type: string;
                            nullable: boolean;
                        }[];
                        input_columns: {
                            name: string;
                            type: string;
                            nullable: boolean;
                        }[];
                        /** @description The transformed sample; binary values as \x hex */
                        rows: {
                            [key: string]: unknown;
                        }[];
                        /** @description Whether rows were left out to keep the answer under 5 MB of rows */
                        truncated: boolean;
                        streams: {
                            name: string;
                            rows_sampled: number;
                        }[];
                        /** @description Whether a run pushes the steps down into the source as one SELECT */
                        pushdown: boolean;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getPipelineState: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        streams: {
                            stream: string;
                            cursor_column: string | null;
                            /** @description The value the next run continues after; null before the first run */
                            cursor_value: unknown;
                            updated_at: string | null;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    resetPipelineState: {
        parameters: {
            query?: {
                stream?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        streams: {
                            stream: string;
                            cursor_column: string | null;
                            /** @description The value the next run continues after; null before the first run */
                            cursor_value: unknown;
                            updated_at: string | null;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listSchedules: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            project_id: string;
                            /** Format: uuid */
                            pipeline_id: string;
                            cron: string | null;
                            timezone: string;
                            interval_seconds: number | null;
                            /** @description Due times missed while no scheduler ran (beyond SVC_SCHEDULER_GRACE_SECONDS): skip them, or run once for all of them */
                            missed_policy: "skip" | "run_once";
                            paused: boolean;
                            /** @description null while paused */
                            next_due_at: string | null;
                            created_by: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    pipeline_id: string;
                    cron?: string | null;
                    /** @description IANA time zone of the cron expression (default UTC) */
                    timezone?: string;
                    interval_seconds?: number | null;
                    /** @description Due times missed while no scheduler ran (beyond SVC_SCHEDULER_GRACE_SECONDS): skip them, or run once for all of them */
                    missed_policy?: "skip" | "run_once";
                    paused?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        /** Format: uuid */
                        pipeline_id: string;
                        cron: string | null;
                        timezone: string;
                        interval_seconds: number | null;
                        /** @description Due times missed while no scheduler ran (beyond SVC_SCHEDULER_GRACE_SECONDS): skip them, or run once for all of them */
                        missed_policy: "skip" | "run_once";
                        paused: boolean;
                        /** @description null while paused */
                        next_due_at: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        /** Format: uuid */
                        pipeline_id: string;
                        cron: string | null;
                        timezone: string;
                        interval_seconds: number | null;
                        /** @description Due times missed while no scheduler ran (beyond SVC_SCHEDULER_GRACE_SECONDS): skip them, or run once for all of them */
                        missed_policy: "skip" | "run_once";
                        paused: boolean;
                        /** @description null while paused */
                        next_due_at: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    cron?: string | null;
                    /** @description IANA time zone of the cron expression (default UTC) */
                    timezone?: string;
                    interval_seconds?: number | null;
                    /** @description Due times missed while no scheduler ran (beyond SVC_SCHEDULER_GRACE_SECONDS): skip them, or run once for all of them */
                    missed_policy?: "skip" | "run_once";
                    paused?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        /** Format: uuid */
                        pipeline_id: string;
                        cron: string | null;
                        timezone: string;
                        interval_seconds: number | null;
                        /** @description Due times missed while no scheduler ran (beyond SVC_SCHEDULER_GRACE_SECONDS): skip them, or run once for all of them */
                        missed_policy: "skip" | "run_once";
                        paused: boolean;
                        /** @description null while paused */
                        next_due_at: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    pauseSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        /** Format: uuid */
                        pipeline_id: string;
                        cron: string | null;
                        timezone: string;
                        interval_seconds: number | null;
                        /** @description Due times missed while no scheduler ran (beyond SVC_SCHEDULER_GRACE_SECONDS): skip them, or run once for all of them */
                        missed_policy: "skip" | "run_once";
                        paused: boolean;
                        /** @description null while paused */
                        next_due_at: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    resumeSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        /** Format: uuid */
                        pipeline_id: string;
                        cron: string | null;
                        timezone: string;
                        interval_seconds: number | null;
                        /** @description Due times missed while no scheduler ran (beyond SVC_SCHEDULER_GRACE_SECONDS): skip them, or run once for all of them */
                        missed_policy: "skip" | "run_once";
                        paused: boolean;
                        /** @description null while paused */
                        next_due_at: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getSchedulesDashboard: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            schedule_id: string;
                            /** Format: uuid */
                            project_id: string;
                            /** Format: uuid */
                            pipeline_id: string;
                            pipeline_name: string;
                            kind: "cron" | "interval";
                            cron: string | null;
                            timezone: string;
                            interval_seconds: number | null;
                            paused: boolean;
                            next_due_at: string | null;
                            last_run: {
                                /** Format: uuid */
                                execution_id: string;
                                status: string;
                                started_at: string | null;
                                finished_at: string | null;
                                duration_ms: number | null;
                            } | null;
                            /** @description Failed runs since the last success (of the latest 50) */
                            failures_in_a_row: number;
                            /** @description Due times never run: missed while no scheduler ran, or due while the pipeline was still running */
                            missed_runs: number;
                            last_missed_at: string | null;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listAuditLog: {
        parameters: {
            query?: {
                kind?: string;
                actor_id?: string;
                since?: string;
                until?: string;
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            id: string;
                            /** Format: date-time */
                            occurred_at: string;
                            kind: string;
                            actor_user_id: string | null;
                            actor_token_id: string | null;
                            client_address: string | null;
                            user_agent: string | null;
                            request_id: string | null;
                            target_type: string | null;
                            target_id: string | null;
                            details: {
                                [key: string]: unknown;
                            };
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listAuditForwarders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            name: string;
                            type: "http" | "syslog";
                            config: {
                                [key: string]: unknown;
                            };
                            secrets_set: string[];
                            actions: string[];
                            enabled: boolean;
                            /** @description Id of the last audit event delivered (or passed over) */
                            cursor: string;
                            /** @description Events after the cursor, waiting (counted up to the backlog limit + 1) */
                            backlog: number;
                            sent: number;
                            /** @description Events of failed attempts (each is retried) */
                            failed: number;
                            /** @description Events passed over because the backlog overflowed (each overflow is audited) */
                            skipped: number;
                            last_delivered_at: string | null;
                            last_error: string | null;
                            last_error_at: string | null;
                            /** Format: date-time */
                            next_attempt_at: string;
                            created_by: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createAuditForwarder: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    type: "http" | "syslog";
                    config: {
                        [key: string]: unknown;
                    };
                    /** @description Audit event kinds to forward; empty: every kind */
                    actions?: string[];
                    enabled?: boolean;
                    /** @description now (default): events from the creation on; beginning: the whole audit log */
                    start_from?: "now" | "beginning";
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        type: "http" | "syslog";
                        config: {
                            [key: string]: unknown;
                        };
                        secrets_set: string[];
                        actions: string[];
                        enabled: boolean;
                        /** @description Id of the last audit event delivered (or passed over) */
                        cursor: string;
                        /** @description Events after the cursor, waiting (counted up to the backlog limit + 1) */
                        backlog: number;
                        sent: number;
                        /** @description Events of failed attempts (each is retried) */
                        failed: number;
                        /** @description Events passed over because the backlog overflowed (each overflow is audited) */
                        skipped: number;
                        last_delivered_at: string | null;
                        last_error: string | null;
                        last_error_at: string | null;
                        /** Format: date-time */
                        next_attempt_at: string;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getAuditForwarder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        type: "http" | "syslog";
                        config: {
                            [key: string]: unknown;
                        };
                        secrets_set: string[];
                        actions: string[];
                        enabled: boolean;
                        /** @description Id of the last audit event delivered (or passed over) */
                        cursor: string;
                        /** @description Events after the cursor, waiting (counted up to the backlog limit + 1) */
                        backlog: number;
                        sent: number;
                        /** @description Events of failed attempts (each is retried) */
                        failed: number;
                        /** @description Events passed over because the backlog overflowed (each overflow is audited) */
                        skipped: number;
                        last_delivered_at: string | null;
                        last_error: string | null;
                        last_error_at: string | null;
                        /** Format: date-time */
                        next_attempt_at: string;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteAuditForwarder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateAuditForwarder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    config?: {
                        [key: string]: unknown;
                    };
                    /** @description Audit event kinds to forward; empty: every kind */
                    actions?: string[];
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        type: "http" | "syslog";
                        config: {
                            [key: string]: unknown;
                        };
                        secrets_set: string[];
                        actions: string[];
                        enabled: boolean;
                        /** @description Id of the last audit event delivered (or passed over) */
                        cursor: string;
                        /** @description Events after the cursor, waiting (counted up to the backlog limit + 1) */
                        backlog: number;
                        sent: number;
                        /** @description Events of failed attempts (each is retried) */
                        failed: number;
                        /** @description Events passed over because the backlog overflowed (each overflow is audited) */
                        skipped: number;
                        last_delivered_at: string | null;
                        last_error: string | null;
                        last_error_at: string | null;
                        /** Format: date-time */
                        next_attempt_at: string;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    testAuditForwarder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        ok: boolean;
                        /** @description The remote answer, or why the delivery failed */
                        detail: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listCdcTables: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            project_id: string;
                            name: string;
                            source: {
                                /** Format: uuid */
                                connector_id: string;
                                namespace: string | null;
                                table: string;
                            };
                            destination: {
                                /** Format: uuid */
                                connector_id: string;
                                namespace: string | null;
                                table: string;
                            };
                            mode: "mirror" | "changelog";
                            desired_state: "running" | "stopped";
                            status: "snapshotting" | "streaming" | "paused" | "failed";
                            resync_requested: boolean;
                            /** @description Source position applied last (PostgreSQL: an LSN; MariaDB: binlog file:position) */
                            last_position: string | null;
                            last_commit_time: string | null;
                            last_applied_at: string | null;
                            changes_applied: number;
                            snapshot_rows: number | null;
                            /** @description From source commit to applied, of the latest transaction; grows while the reader is behind or down */
                            lag_seconds: number | null;
                            /** @description Change data at the source past the applied position */
                            lag_bytes: number | null;
                            /** @description PostgreSQL: WAL the replication slot holds */
                            retained_wal_bytes: number | null;
                            last_error: string | null;
                            /** @description The worker reading it now */
                            reader: string | null;
                            created_by: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createCdcTable: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    project_id: string;
                    name: string;
                    source: {
                        /** Format: uuid */
                        connector_id: string;
                        /** @description Schema or database; the connector's own when omitted */
                        namespace?: string | null;
                        table: string;
                    };
                    destination: {
                        /** Format: uuid */
                        connector_id: string;
                        /** @description Schema or database; the connector's own when omitted */
                        namespace?: string | null;
                        table: string;
                    };
                    /** @description mirror: upsert and delete by primary key; changelog: append every change with operation, source position and commit time */
                    mode: "mirror" | "changelog";
                    /** @description Start at once (default true) */
                    start?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        source: {
                            /** Format: uuid */
                            connector_id: string;
                            namespace: string | null;
                            table: string;
                        };
                        destination: {
                            /** Format: uuid */
                            connector_id: string;
                            namespace: string | null;
                            table: string;
                        };
                        mode: "mirror" | "changelog";
                        desired_state: "running" | "stopped";
                        status: "snapshotting" | "streaming" | "paused" | "failed";
                        resync_requested: boolean;
                        /** @description Source position applied last (PostgreSQL: an LSN; MariaDB: binlog file:position) */
                        last_position: string | null;
                        last_commit_time: string | null;
                        last_applied_at: string | null;
                        changes_applied: number;
                        snapshot_rows: number | null;
                        /** @description From source commit to applied, of the latest transaction; grows while the reader is behind or down */
                        lag_seconds: number | null;
                        /** @description Change data at the source past the applied position */
                        lag_bytes: number | null;
                        /** @description PostgreSQL: WAL the replication slot holds */
                        retained_wal_bytes: number | null;
                        last_error: string | null;
                        /** @description The worker reading it now */
                        reader: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getCdcTable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        source: {
                            /** Format: uuid */
                            connector_id: string;
                            namespace: string | null;
                            table: string;
                        };
                        destination: {
                            /** Format: uuid */
                            connector_id: string;
                            namespace: string | null;
                            table: string;
                        };
                        mode: "mirror" | "changelog";
                        desired_state: "running" | "stopped";
                        status: "snapshotting" | "streaming" | "paused" | "failed";
                        resync_requested: boolean;
                        /** @description Source position applied last (PostgreSQL: an LSN; MariaDB: binlog file:position) */
                        last_position: string | null;
                        last_commit_time: string | null;
                        last_applied_at: string | null;
                        changes_applied: number;
                        snapshot_rows: number | null;
                        /** @description From source commit to applied, of the latest transaction; grows while the reader is behind or down */
                        lag_seconds: number | null;
                        /** @description Change data at the source past the applied position */
                        lag_bytes: number | null;
                        /** @description PostgreSQL: WAL the replication slot holds */
                        retained_wal_bytes: number | null;
                        last_error: string | null;
                        /** @description The worker reading it now */
                        reader: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteCdcTable: {
        parameters: {
            query?: {
                /** @description Delete even when the source cannot be reached to drop the slot */
                force?: boolean;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateCdcTable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        source: {
                            /** Format: uuid */
                            connector_id: string;
                            namespace: string | null;
                            table: string;
                        };
                        destination: {
                            /** Format: uuid */
                            connector_id: string;
                            namespace: string | null;
                            table: string;
                        };
                        mode: "mirror" | "changelog";
                        desired_state: "running" | "stopped";
                        status: "snapshotting" | "streaming" | "paused" | "failed";
                        resync_requested: boolean;
                        /** @description Source position applied last (PostgreSQL: an LSN; MariaDB: binlog file:position) */
                        last_position: string | null;
                        last_commit_time: string | null;
                        last_applied_at: string | null;
                        changes_applied: number;
                        snapshot_rows: number | null;
                        /** @description From source commit to applied, of the latest transaction; grows while the reader is behind or down */
                        lag_seconds: number | null;
                        /** @description Change data at the source past the applied position */
                        lag_bytes: number | null;
                        /** @description PostgreSQL: WAL the replication slot holds */
                        retained_wal_bytes: number | null;
                        last_error: string | null;
                        /** @description The worker reading it now */
                        reader: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    startCdcTable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        source: {
                            /** Format: uuid */
                            connector_id: string;
                            namespace: string | null;
                            table: string;
                        };
                        destination: {
                            /** Format: uuid */
                            connector_id: string;
                            namespace: string | null;
                            table: string;
                        };
                        mode: "mirror" | "changelog";
                        desired_state: "running" | "stopped";
                        status: "snapshotting" | "streaming" | "paused" | "failed";
                        resync_requested: boolean;
                        /** @description Source position applied last (PostgreSQL: an LSN; MariaDB: binlog file:position) */
                        last_position: string | null;
                        last_commit_time: string | null;
                        last_applied_at: string | null;
                        changes_applied: number;
                        snapshot_rows: number | null;
                        /** @description From source commit to applied, of the latest transaction; grows while the reader is behind or down */
                        lag_seconds: number | null;
                        /** @description Change data at the source past the applied position */
                        lag_bytes: number | null;
                        /** @description PostgreSQL: WAL the replication slot holds */
                        retained_wal_bytes: number | null;
                        last_error: string | null;
                        /** @description The worker reading it now */
                        reader: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    stopCdcTable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        source: {
                            /** Format: uuid */
                            connector_id: string;
                            namespace: string | null;
                            table: string;
                        };
                        destination: {
                            /** Format: uuid */
                            connector_id: string;
                            namespace: string | null;
                            table: string;
                        };
                        mode: "mirror" | "changelog";
                        desired_state: "running" | "stopped";
                        status: "snapshotting" | "streaming" | "paused" | "failed";
                        resync_requested: boolean;
                        /** @description Source position applied last (PostgreSQL: an LSN; MariaDB: binlog file:position) */
                        last_position: string | null;
                        last_commit_time: string | null;
                        last_applied_at: string | null;
                        changes_applied: number;
                        snapshot_rows: number | null;
                        /** @description From source commit to applied, of the latest transaction; grows while the reader is behind or down */
                        lag_seconds: number | null;
                        /** @description Change data at the source past the applied position */
                        lag_bytes: number | null;
                        /** @description PostgreSQL: WAL the replication slot holds */
                        retained_wal_bytes: number | null;
                        last_error: string | null;
                        /** @description The worker reading it now */
                        reader: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    resyncCdcTable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        source: {
                            /** Format: uuid */
                            connector_id: string;
                            namespace: string | null;
                            table: string;
                        };
                        destination: {
                            /** Format: uuid */
                            connector_id: string;
                            namespace: string | null;
                            table: string;
                        };
                        mode: "mirror" | "changelog";
                        desired_state: "running" | "stopped";
                        status: "snapshotting" | "streaming" | "paused" | "failed";
                        resync_requested: boolean;
                        /** @description Source position applied last (PostgreSQL: an LSN; MariaDB: binlog file:position) */
                        last_position: string | null;
                        last_commit_time: string | null;
                        last_applied_at: string | null;
                        changes_applied: number;
                        snapshot_rows: number | null;
                        /** @description From source commit to applied, of the latest transaction; grows while the reader is behind or down */
                        lag_seconds: number | null;
                        /** @description Change data at the source past the applied position */
                        lag_bytes: number | null;
                        /** @description PostgreSQL: WAL the replication slot holds */
                        retained_wal_bytes: number | null;
                        last_error: string | null;
                        /** @description The worker reading it now */
                        reader: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getCdcTableLagHistory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: date-time */
                            at: string;
                            /** @description CDC tables: seconds behind the source */
                            lag_seconds: number | null;
                            /** @description CDC tables: change data past the applied position */
                            lag_bytes: number | null;
                            /** @description Streams: messages waiting at the broker */
                            lag_messages: number | null;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getCdcTableLogs: {
        parameters: {
            query?: {
                after_id?: string;
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: ({
                            id: string;
                            /** Format: date-time */
                            ts: string;
                            level: string;
                            message: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    streamCdcTableLogs: {
        parameters: {
            query?: {
                /** @description Access token (EventSource cannot send headers) */
                token?: string;
                last_event_id?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/event-stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listStreams: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            project_id: string;
                            environment_id: string | null;
                            name: string;
                            /** Format: uuid */
                            source_connector_id: string;
                            source: {
                                name: string;
                                filter: string | null;
                                consumer: string;
                                /** @description Where a new consumer starts, where the broker supports it (RabbitMQ: all) */
                                start: "all" | "new" | "from_time" | "from_sequence";
                                start_time: string | null;
                                start_sequence: number | null;
                            };
                            format: {
                                type: string;
                                record_path: string | null;
                            };
                            /** Format: uuid */
                            destination_connector_id: string;
                            table: string;
                            write_mode: "append" | "upsert";
                            key_columns: string[];
                            batch: {
                                max_rows: number;
                                max_latency_ms: number;
                            };
                            max_deliveries: number;
                            /** @description Where dead messages go. Always kept in the stream dead-letter list (for retry); broker also publishes them to a subject, queue, stream key or topic of the source broker, with the reason beside the body (a header, a field of the entry, an MQTT 5 user property) */
                            dead_letter: {
                                /** @enum {string} */
                                kind: "table";
                            } | {
                                /** @enum {string} */
                                kind: "broker";
                                /** @description A subject (NATS), queue (RabbitMQ), stream key (Redis, not the one read) or topic (MQTT, outside the topic filter read) */
                                target: string;
                            };
                            transforms: {
                                [key: string]: unknown;
                            }[];
                            desired_state: "running" | "stopped";
                            status: "stopped" | "starting" | "running" | "degraded" | "failed" | "paused";
                            last_error: string | null;
                            /** @description Since when the stream is paused (its consumer holds it and takes nothing); start resumes it */
                            paused_at: string | null;
                            /** @description The worker consuming it now */
                            consumer_worker: string | null;
                            created_by: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createStream: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    project_id: string;
                    environment_id?: string | null;
                    name: string;
                    /** Format: uuid */
                    source_connector_id: string;
                    source: {
                        /** @description NATS: the JetStream stream; RabbitMQ: the queue; MQTT: the topic filter; Redis: the stream key */
                        name: string;
                        /** @description NATS: a subject filter */
                        filter?: string;
                        /** @description Durable consumer or group name (default svc_<stream id>) */
                        consumer?: string;
                        /** @description Where a new consumer starts, where the broker supports it (RabbitMQ: all) */
                        start?: "all" | "new" | "from_time" | "from_sequence";
                        /** Format: date-time */
                        start_time?: string;
                        start_sequence?: number;
                    };
                    format?: {
                        type: "json" | "ndjson" | "csv" | "text";
                        /** @description JSON formats: path to the record or to an array of records, e.g. $.data.items */
                        record_path?: string;
                    };
                    /** Format: uuid */
                    destination_connector_id: string;
                    table: string;
                    write_mode?: "append" | "upsert";
                    key_columns?: string[];
                    batch?: {
                        /** @default 1000 */
                        max_rows?: number;
                        /** @default 500 */
                        max_latency_ms?: number;
                    };
                    /** @default 5 */
                    max_deliveries?: number;
                    /** @description Where dead messages go. Always kept in the stream dead-letter list (for retry); broker also publishes them to a subject, queue, stream key or topic of the source broker, with the reason beside the body (a header, a field of the entry, an MQTT 5 user property) */
                    dead_letter?: {
                        /** @enum {string} */
                        kind: "table";
                    } | {
                        /** @enum {string} */
                        kind: "broker";
                        /** @description A subject (NATS), queue (RabbitMQ), stream key (Redis, not the one read) or topic (MQTT, outside the topic filter read) */
                        target: string;
                    };
                    /** @description Declarative steps (as pipelines have) applied to each message's records before they are written; a message a step cannot apply to is refused (then dead-lettered) */
                    transforms?: ({
                        /**
                         * @description docs/transforms.md lists each step's fields. Cast types: boolean, int16, int32, int64, float32, float64, decimal, string, uuid, date, time, timestamp, timestamptz, json, binary
                         * @enum {string}
                         */
                        type: "select" | "drop" | "rename" | "cast" | "filter" | "derive" | "deduplicate" | "flatten" | "mask";
                    } & {
                        [key: string]: unknown;
                    })[];
                    /** @description Start at once (default false) */
                    start?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        environment_id: string | null;
                        name: string;
                        /** Format: uuid */
                        source_connector_id: string;
                        source: {
                            name: string;
                            filter: string | null;
                            consumer: string;
                            /** @description Where a new consumer starts, where the broker supports it (RabbitMQ: all) */
                            start: "all" | "new" | "from_time" | "from_sequence";
                            start_time: string | null;
                            start_sequence: number | null;
                        };
                        format: {
                            type: string;
                            record_path: string | null;
                        };
                        /** Format: uuid */
                        destination_connector_id: string;
                        table: string;
                        write_mode: "append" | "upsert";
                        key_columns: string[];
                        batch: {
                            max_rows: number;
                            max_latency_ms: number;
                        };
                        max_deliveries: number;
                        /** @description Where dead messages go. Always kept in the stream dead-letter list (for retry); broker also publishes them to a subject, queue, stream key or topic of the source broker, with the reason beside the body (a header, a field of the entry, an MQTT 5 user property) */
                        dead_letter: {
                            /** @enum {string} */
                            kind: "table";
                        } | {
                            /** @enum {string} */
                            kind: "broker";
                            /** @description A subject (NATS), queue (RabbitMQ), stream key (Redis, not the one read) or topic (MQTT, outside the topic filter read) */
                            target: string;
                        };
                        transforms: {
                            [key: string]: unknown;
                        }[];
                        desired_state: "running" | "stopped";
                        status: "stopped" | "starting" | "running" | "degraded" | "failed" | "paused";
                        last_error: string | null;
                        /** @description Since when the stream is paused (its consumer holds it and takes nothing); start resumes it */
                        paused_at: string | null;
                        /** @description The worker consuming it now */
                        consumer_worker: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getStream: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        environment_id: string | null;
                        name: string;
                        /** Format: uuid */
                        source_connector_id: string;
                        source: {
                            name: string;
                            filter: string | null;
                            consumer: string;
                            /** @description Where a new consumer starts, where the broker supports it (RabbitMQ: all) */
                            start: "all" | "new" | "from_time" | "from_sequence";
                            start_time: string | null;
                            start_sequence: number | null;
                        };
                        format: {
                            type: string;
                            record_path: string | null;
                        };
                        /** Format: uuid */
                        destination_connector_id: string;
                        table: string;
                        write_mode: "append" | "upsert";
                        key_columns: string[];
                        batch: {
                            max_rows: number;
                            max_latency_ms: number;
                        };
                        max_deliveries: number;
                        /** @description Where dead messages go. Always kept in the stream dead-letter list (for retry); broker also publishes them to a subject, queue, stream key or topic of the source broker, with the reason beside the body (a header, a field of the entry, an MQTT 5 user property) */
                        dead_letter: {
                            /** @enum {string} */
                            kind: "table";
                        } | {
                            /** @enum {string} */
                            kind: "broker";
                            /** @description A subject (NATS), queue (RabbitMQ), stream key (Redis, not the one read) or topic (MQTT, outside the topic filter read) */
                            target: string;
                        };
                        transforms: {
                            [key: string]: unknown;
                        }[];
                        desired_state: "running" | "stopped";
                        status: "stopped" | "starting" | "running" | "degraded" | "failed" | "paused";
                        last_error: string | null;
                        /** @description Since when the stream is paused (its consumer holds it and takes nothing); start resumes it */
                        paused_at: string | null;
                        /** @description The worker consuming it now */
                        consumer_worker: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteStream: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateStream: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    format?: {
                        type: "json" | "ndjson" | "csv" | "text";
                        /** @description JSON formats: path to the record or to an array of records, e.g. $.data.items */
                        record_path?: string;
                    };
                    batch?: {
                        /** @default 1000 */
                        max_rows?: number;
                        /** @default 500 */
                        max_latency_ms?: number;
                    };
                    max_deliveries?: number;
                    /** @description Where dead messages go. Always kept in the stream dead-letter list (for retry); broker also publishes them to a subject, queue, stream key or topic of the source broker, with the reason beside the body (a header, a field of the entry, an MQTT 5 user property) */
                    dead_letter?: {
                        /** @enum {string} */
                        kind: "table";
                    } | {
                        /** @enum {string} */
                        kind: "broker";
                        /** @description A subject (NATS), queue (RabbitMQ), stream key (Redis, not the one read) or topic (MQTT, outside the topic filter read) */
                        target: string;
                    };
                    /** @description Declarative steps (as pipelines have) applied to each message's records before they are written; a message a step cannot apply to is refused (then dead-lettered) */
                    transforms?: ({
                        /**
                         * @description docs/transforms.md lists each step's fields. Cast types: boolean, int16, int32, int64, float32, float64, decimal, string, uuid, date, time, timestamp, timestamptz, json, binary
                         * @enum {string}
                         */
                        type: "select" | "drop" | "rename" | "cast" | "filter" | "derive" | "deduplicate" | "flatten" | "mask";
                    } & {
                        [key: string]: unknown;
                    })[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        environment_id: string | null;
                        name: string;
                        /** Format: uuid */
                        source_connector_id: string;
                        source: {
                            name: string;
                            filter: string | null;
                            consumer: string;
                            /** @description Where a new consumer starts, where the broker supports it (RabbitMQ: all) */
                            start: "all" | "new" | "from_time" | "from_sequence";
                            start_time: string | null;
                            start_sequence: number | null;
                        };
                        format: {
                            type: string;
                            record_path: string | null;
                        };
                        /** Format: uuid */
                        destination_connector_id: string;
                        table: string;
                        write_mode: "append" | "upsert";
                        key_columns: string[];
                        batch: {
                            max_rows: number;
                            max_latency_ms: number;
                        };
                        max_deliveries: number;
                        /** @description Where dead messages go. Always kept in the stream dead-letter list (for retry); broker also publishes them to a subject, queue, stream key or topic of the source broker, with the reason beside the body (a header, a field of the entry, an MQTT 5 user property) */
                        dead_letter: {
                            /** @enum {string} */
                            kind: "table";
                        } | {
                            /** @enum {string} */
                            kind: "broker";
                            /** @description A subject (NATS), queue (RabbitMQ), stream key (Redis, not the one read) or topic (MQTT, outside the topic filter read) */
                            target: string;
                        };
                        transforms: {
                            [key: string]: unknown;
                        }[];
                        desired_state: "running" | "stopped";
                        status: "stopped" | "starting" | "running" | "degraded" | "failed" | "paused";
                        last_error: string | null;
                        /** @description Since when the stream is paused (its consumer holds it and takes nothing); start resumes it */
                        paused_at: string | null;
                        /** @description The worker consuming it now */
                        consumer_worker: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    startStream: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        environment_id: string | null;
                        name: string;
                        /** Format: uuid */
                        source_connector_id: string;
                        source: {
                            name: string;
                            filter: string | null;
                            consumer: string;
                            /** @description Where a new consumer starts, where the broker supports it (RabbitMQ: all) */
                            start: "all" | "new" | "from_time" | "from_sequence";
                            start_time: string | null;
                            start_sequence: number | null;
                        };
                        format: {
                            type: string;
                            record_path: string | null;
                        };
                        /** Format: uuid */
                        destination_connector_id: string;
                        table: string;
                        write_mode: "append" | "upsert";
                        key_columns: string[];
                        batch: {
                            max_rows: number;
                            max_latency_ms: number;
                        };
                        max_deliveries: number;
                        /** @description Where dead messages go. Always kept in the stream dead-letter list (for retry); broker also publishes them to a subject, queue, stream key or topic of the source broker, with the reason beside the body (a header, a field of the entry, an MQTT 5 user property) */
                        dead_letter: {
                            /** @enum {string} */
                            kind: "table";
                        } | {
                            /** @enum {string} */
                            kind: "broker";
                            /** @description A subject (NATS), queue (RabbitMQ), stream key (Redis, not the one read) or topic (MQTT, outside the topic filter read) */
                            target: string;
                        };
                        transforms: {
                            [key: string]: unknown;
                        }[];
                        desired_state: "running" | "stopped";
                        status: "stopped" | "starting" | "running" | "degraded" | "failed" | "paused";
                        last_error: string | null;
                        /** @description Since when the stream is paused (its consumer holds it and takes nothing); start resumes it */
                        paused_at: string | null;
                        /** @description The worker consuming it now */
                        consumer_worker: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    stopStream: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        environment_id: string | null;
                        name: string;
                        /** Format: uuid */
                        source_connector_id: string;
                        source: {
                            name: string;
                            filter: string | null;
                            consumer: string;
                            /** @description Where a new consumer starts, where the broker supports it (RabbitMQ: all) */
                            start: "all" | "new" | "from_time" | "from_sequence";
                            start_time: string | null;
                            start_sequence: number | null;
                        };
                        format: {
                            type: string;
                            record_path: string | null;
                        };
                        /** Format: uuid */
                        destination_connector_id: string;
                        table: string;
                        write_mode: "append" | "upsert";
                        key_columns: string[];
                        batch: {
                            max_rows: number;
                            max_latency_ms: number;
                        };
                        max_deliveries: number;
                        /** @description Where dead messages go. Always kept in the stream dead-letter list (for retry); broker also publishes them to a subject, queue, stream key or topic of the source broker, with the reason beside the body (a header, a field of the entry, an MQTT 5 user property) */
                        dead_letter: {
                            /** @enum {string} */
                            kind: "table";
                        } | {
                            /** @enum {string} */
                            kind: "broker";
                            /** @description A subject (NATS), queue (RabbitMQ), stream key (Redis, not the one read) or topic (MQTT, outside the topic filter read) */
                            target: string;
                        };
                        transforms: {
                            [key: string]: unknown;
                        }[];
                        desired_state: "running" | "stopped";
                        status: "stopped" | "starting" | "running" | "degraded" | "failed" | "paused";
                        last_error: string | null;
                        /** @description Since when the stream is paused (its consumer holds it and takes nothing); start resumes it */
                        paused_at: string | null;
                        /** @description The worker consuming it now */
                        consumer_worker: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    pauseStream: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        environment_id: string | null;
                        name: string;
                        /** Format: uuid */
                        source_connector_id: string;
                        source: {
                            name: string;
                            filter: string | null;
                            consumer: string;
                            /** @description Where a new consumer starts, where the broker supports it (RabbitMQ: all) */
                            start: "all" | "new" | "from_time" | "from_sequence";
                            start_time: string | null;
                            start_sequence: number | null;
                        };
                        format: {
                            type: string;
                            record_path: string | null;
                        };
                        /** Format: uuid */
                        destination_connector_id: string;
                        table: string;
                        write_mode: "append" | "upsert";
                        key_columns: string[];
                        batch: {
                            max_rows: number;
                            max_latency_ms: number;
                        };
                        max_deliveries: number;
                        /** @description Where dead messages go. Always kept in the stream dead-letter list (for retry); broker also publishes them to a subject, queue, stream key or topic of the source broker, with the reason beside the body (a header, a field of the entry, an MQTT 5 user property) */
                        dead_letter: {
                            /** @enum {string} */
                            kind: "table";
                        } | {
                            /** @enum {string} */
                            kind: "broker";
                            /** @description A subject (NATS), queue (RabbitMQ), stream key (Redis, not the one read) or topic (MQTT, outside the topic filter read) */
                            target: string;
                        };
                        transforms: {
                            [key: string]: unknown;
                        }[];
                        desired_state: "running" | "stopped";
                        status: "stopped" | "starting" | "running" | "degraded" | "failed" | "paused";
                        last_error: string | null;
                        /** @description Since when the stream is paused (its consumer holds it and takes nothing); start resumes it */
                        paused_at: string | null;
                        /** @description The worker consuming it now */
                        consumer_worker: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getStreamLagHistory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: date-time */
                            at: string;
                            /** @description CDC tables: seconds behind the source */
                            lag_seconds: number | null;
                            /** @description CDC tables: change data past the applied position */
                            lag_bytes: number | null;
                            /** @description Streams: messages waiting at the broker */
                            lag_messages: number | null;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listStreamRuns: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            stream_id: string;
                            worker: string;
                            status: "running" | "stopped" | "failed" | "interrupted";
                            /** Format: date-time */
                            started_at: string;
                            ended_at: string | null;
                            messages_received: number;
                            /** @description Messages written (their rows committed) or found already written */
                            messages_written: number;
                            rows_written: number;
                            /** @description Redelivered messages found in the ledger, not written again */
                            duplicates: number;
                            dead_lettered: number;
                            bytes: number;
                            /** @description Messages waiting at the broker */
                            lag_messages: number | null;
                            /** @description Publish to committed, of the latest batch */
                            latency_seconds: number | null;
                            last_message_at: string | null;
                            errors: number;
                            last_error: string | null;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listStreamDeadLetters: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            id: string;
                            /** Format: uuid */
                            stream_id: string;
                            message_id: string;
                            subject: string | null;
                            /** @description The message body as UTF-8 (lossy for binary bodies) */
                            payload: string;
                            payload_bytes: number;
                            reason: string;
                            deliveries: number;
                            /** Format: date-time */
                            created_at: string;
                            retry_requested_at: string | null;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    retryStreamDeadLetter: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                dead_letter_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** Format: uuid */
                        stream_id: string;
                        message_id: string;
                        subject: string | null;
                        /** @description The message body as UTF-8 (lossy for binary bodies) */
                        payload: string;
                        payload_bytes: number;
                        reason: string;
                        deliveries: number;
                        /** Format: date-time */
                        created_at: string;
                        retry_requested_at: string | null;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    streamStreamRuns: {
        parameters: {
            query?: {
                /** @description Access token (EventSource cannot send headers) */
                token?: string;
                last_event_id?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/event-stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listFileIngestions: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            project_id: string;
                            name: string;
                            source: {
                                kind: string;
                            } & {
                                [key: string]: unknown;
                            };
                            format: {
                                [key: string]: unknown;
                            };
                            schema_mode: string;
                            columns: {
                                [key: string]: unknown;
                            }[];
                            on_error: string;
                            error_limit: number;
                            post_action: string;
                            archive_path: string | null;
                            destination: {
                                [key: string]: unknown;
                            };
                            poll_interval_seconds: number | null;
                            next_poll_at: string | null;
                            created_by: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createFileIngestion: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    project_id: string;
                    name: string;
                    source: {
                        /**
                         * @description Files uploaded with POST /file-ingestions/{id}/files
                         * @enum {string}
                         */
                        kind: "upload";
                    } | {
                        /**
                         * @description A folder of the project's own folder of the files root
                         * @enum {string}
                         */
                        kind: "folder";
                        /** @description Relative to the project's folder of the files root (SVC_FILES_ROOT/<project id>) */
                        path: string;
                        /** @description Default: * */
                        glob?: string;
                    } | {
                        /**
                         * @description A bucket prefix of S3 or an S3-compatible store
                         * @enum {string}
                         */
                        kind: "s3";
                        /**
                         * Format: uri
                         * @description An S3-compatible store; AWS when omitted
                         */
                        endpoint?: string;
                        region?: string;
                        bucket: string;
                        prefix?: string;
                        /** @description Default: * */
                        glob?: string;
                        /** @description Bucket in the path (default when an endpoint is given) */
                        force_path_style?: boolean;
                        access_key_id?: string;
                        /** @description Write-only; kept encrypted */
                        secret_access_key?: string;
                    } | {
                        /**
                         * @description A directory on an SSH server, through an sftp data connector
                         * @enum {string}
                         */
                        kind: "sftp";
                        /**
                         * Format: uuid
                         * @description An sftp data connector of the project: its host, login (kept encrypted) and host key are used
                         */
                        connector_id: string;
                        /** @description The remote directory, relative to the connector's directory (or absolute); default: that directory */
                        path?: string;
                        /** @description Default: * */
                        glob?: string;
                    };
                    format: {
                        /** @description json (an array of objects, or one), xlsx (the first worksheet, its first row naming the columns) and parquet are read whole, not streamed */
                        type: "csv" | "ndjson" | "json" | "xlsx" | "parquet";
                        /** @description CSV: default , */
                        delimiter?: string;
                        /** @description CSV: the first line names the columns (default true) */
                        header?: boolean;
                        /** @description A WHATWG encoding label: utf-8 (default), latin1, windows-1252, utf-16le, ... */
                        encoding?: string;
                        /** @description auto (default): gzip when the name ends in .gz, a zip archive when it ends in .zip. A zip archive is expanded and each member matching archive_members is loaded as its own file */
                        compression?: "none" | "gzip" | "zip" | "auto";
                        /** @description Zip archives: the members to load, a glob matched against each member's path and its base name (default: by the format's extension, e.g. *.{csv,csv.gz} for csv) */
                        archive_members?: string;
                    };
                    schema_mode?: "infer" | "fixed";
                    /** @description Required with schema_mode fixed */
                    columns?: {
                        name: string;
                        type: "boolean" | "int16" | "int32" | "int64" | "float32" | "float64" | "decimal" | "string" | "uuid" | "date" | "time" | "timestamp" | "timestamptz" | "json";
                        nullable?: boolean;
                    }[];
                    /** @description abort: the first bad row fails the file and stops the run; skip_file: the file fails, the run goes on; continue: bad rows are left out, up to error_limit */
                    on_error?: "abort" | "skip_file" | "continue";
                    /** @description continue: most bad rows a file may have */
                    error_limit?: number;
                    post_action?: "archive" | "delete" | "none";
                    /** @description archive: a folder of the project's folder of the files root, or an S3 prefix (default: <source path or prefix>/archive) */
                    archive_path?: string | null;
                    destination: {
                        /** Format: uuid */
                        connector_id: string;
                        namespace?: string | null;
                        table: string;
                        mode: "append" | "overwrite" | "upsert";
                        key_columns?: string[];
                    };
                    /** @description folder sources: look for new files this often (none: only on request) */
                    poll_interval_seconds?: number | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        source: {
                            kind: string;
                        } & {
                            [key: string]: unknown;
                        };
                        format: {
                            [key: string]: unknown;
                        };
                        schema_mode: string;
                        columns: {
                            [key: string]: unknown;
                        }[];
                        on_error: string;
                        error_limit: number;
                        post_action: string;
                        archive_path: string | null;
                        destination: {
                            [key: string]: unknown;
                        };
                        poll_interval_seconds: number | null;
                        next_poll_at: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getFileIngestion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        source: {
                            kind: string;
                        } & {
                            [key: string]: unknown;
                        };
                        format: {
                            [key: string]: unknown;
                        };
                        schema_mode: string;
                        columns: {
                            [key: string]: unknown;
                        }[];
                        on_error: string;
                        error_limit: number;
                        post_action: string;
                        archive_path: string | null;
                        destination: {
                            [key: string]: unknown;
                        };
                        poll_interval_seconds: number | null;
                        next_poll_at: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteFileIngestion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateFileIngestion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    source?: {
                        /**
                         * @description Files uploaded with POST /file-ingestions/{id}/files
                         * @enum {string}
                         */
                        kind: "upload";
                    } | {
                        /**
                         * @description A folder of the project's own folder of the files root
                         * @enum {string}
                         */
                        kind: "folder";
                        /** @description Relative to the project's folder of the files root (SVC_FILES_ROOT/<project id>) */
                        path: string;
                        /** @description Default: * */
                        glob?: string;
                    } | {
                        /**
                         * @description A bucket prefix of S3 or an S3-compatible store
                         * @enum {string}
                         */
                        kind: "s3";
                        /**
                         * Format: uri
                         * @description An S3-compatible store; AWS when omitted
                         */
                        endpoint?: string;
                        region?: string;
                        bucket: string;
                        prefix?: string;
                        /** @description Default: * */
                        glob?: string;
                        /** @description Bucket in the path (default when an endpoint is given) */
                        force_path_style?: boolean;
                        access_key_id?: string;
                        /** @description Write-only; kept encrypted */
                        secret_access_key?: string;
                    } | {
                        /**
                         * @description A directory on an SSH server, through an sftp data connector
                         * @enum {string}
                         */
                        kind: "sftp";
                        /**
                         * Format: uuid
                         * @description An sftp data connector of the project: its host, login (kept encrypted) and host key are used
                         */
                        connector_id: string;
                        /** @description The remote directory, relative to the connector's directory (or absolute); default: that directory */
                        path?: string;
                        /** @description Default: * */
                        glob?: string;
                    };
                    format?: {
                        /** @description json (an array of objects, or one), xlsx (the first worksheet, its first row naming the columns) and parquet are read whole, not streamed */
                        type: "csv" | "ndjson" | "json" | "xlsx" | "parquet";
                        /** @description CSV: default , */
                        delimiter?: string;
                        /** @description CSV: the first line names the columns (default true) */
                        header?: boolean;
                        /** @description A WHATWG encoding label: utf-8 (default), latin1, windows-1252, utf-16le, ... */
                        encoding?: string;
                        /** @description auto (default): gzip when the name ends in .gz, a zip archive when it ends in .zip. A zip archive is expanded and each member matching archive_members is loaded as its own file */
                        compression?: "none" | "gzip" | "zip" | "auto";
                        /** @description Zip archives: the members to load, a glob matched against each member's path and its base name (default: by the format's extension, e.g. *.{csv,csv.gz} for csv) */
                        archive_members?: string;
                    };
                    schema_mode?: "infer" | "fixed";
                    /** @description Required with schema_mode fixed */
                    columns?: {
                        name: string;
                        type: "boolean" | "int16" | "int32" | "int64" | "float32" | "float64" | "decimal" | "string" | "uuid" | "date" | "time" | "timestamp" | "timestamptz" | "json";
                        nullable?: boolean;
                    }[];
                    /** @description abort: the first bad row fails the file and stops the run; skip_file: the file fails, the run goes on; continue: bad rows are left out, up to error_limit */
                    on_error?: "abort" | "skip_file" | "continue";
                    /** @description continue: most bad rows a file may have */
                    error_limit?: number;
                    post_action?: "archive" | "delete" | "none";
                    /** @description archive: a folder of the project's folder of the files root, or an S3 prefix (default: <source path or prefix>/archive) */
                    archive_path?: string | null;
                    destination?: {
                        /** Format: uuid */
                        connector_id: string;
                        namespace?: string | null;
                        table: string;
                        mode: "append" | "overwrite" | "upsert";
                        key_columns?: string[];
                    };
                    /** @description folder sources: look for new files this often (none: only on request) */
                    poll_interval_seconds?: number | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        source: {
                            kind: string;
                        } & {
                            [key: string]: unknown;
                        };
                        format: {
                            [key: string]: unknown;
                        };
                        schema_mode: string;
                        columns: {
                            [key: string]: unknown;
                        }[];
                        on_error: string;
                        error_limit: number;
                        post_action: string;
                        archive_path: string | null;
                        destination: {
                            [key: string]: unknown;
                        };
                        poll_interval_seconds: number | null;
                        next_poll_at: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listIngestionFiles: {
        parameters: {
            query?: {
                status?: "pending" | "loading" | "loaded" | "failed" | "partially_loaded" | "skipped_duplicate";
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            ingestion_id: string;
                            name: string;
                            size: number;
                            /** @description sha256 of the file as received, hex */
                            checksum: string;
                            status: "pending" | "loading" | "loaded" | "failed" | "partially_loaded" | "skipped_duplicate";
                            forced: boolean;
                            reload_of: string | null;
                            rows_parsed: number;
                            rows_loaded: number;
                            error_count: number;
                            first_error: {
                                line: number;
                                column: string | null;
                                message: string;
                            } | null;
                            /** @description Whether the file is still kept, so that it can be reloaded */
                            available: boolean;
                            /** @description A member of a zip archive: the history row of the archive it was expanded from */
                            archive_id: string | null;
                            /** @description A member of a zip archive: its path in the archive (the row's name is <archive name>/<member path>) */
                            archive_member: string | null;
                            execution_id: string | null;
                            /** Format: date-time */
                            created_at: string;
                            finished_at: string | null;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    uploadIngestionFile: {
        parameters: {
            query?: {
                /** @description Load even when a file of the same name and checksum was loaded already */
                force?: boolean;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        ingestion_id: string;
                        name: string;
                        size: number;
                        /** @description sha256 of the file as received, hex */
                        checksum: string;
                        status: "pending" | "loading" | "loaded" | "failed" | "partially_loaded" | "skipped_duplicate";
                        forced: boolean;
                        reload_of: string | null;
                        rows_parsed: number;
                        rows_loaded: number;
                        error_count: number;
                        first_error: {
                            line: number;
                            column: string | null;
                            message: string;
                        } | null;
                        /** @description Whether the file is still kept, so that it can be reloaded */
                        available: boolean;
                        /** @description A member of a zip archive: the history row of the archive it was expanded from */
                        archive_id: string | null;
                        /** @description A member of a zip archive: its path in the archive (the row's name is <archive name>/<member path>) */
                        archive_member: string | null;
                        execution_id: string | null;
                        /** Format: date-time */
                        created_at: string;
                        finished_at: string | null;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getIngestionFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                file_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        ingestion_id: string;
                        name: string;
                        size: number;
                        /** @description sha256 of the file as received, hex */
                        checksum: string;
                        status: "pending" | "loading" | "loaded" | "failed" | "partially_loaded" | "skipped_duplicate";
                        forced: boolean;
                        reload_of: string | null;
                        rows_parsed: number;
                        rows_loaded: number;
                        error_count: number;
                        first_error: {
                            line: number;
                            column: string | null;
                            message: string;
                        } | null;
                        /** @description Whether the file is still kept, so that it can be reloaded */
                        available: boolean;
                        /** @description A member of a zip archive: the history row of the archive it was expanded from */
                        archive_id: string | null;
                        /** @description A member of a zip archive: its path in the archive (the row's name is <archive name>/<member path>) */
                        archive_member: string | null;
                        execution_id: string | null;
                        /** Format: date-time */
                        created_at: string;
                        finished_at: string | null;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    reloadIngestionFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                file_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        ingestion_id: string;
                        name: string;
                        size: number;
                        /** @description sha256 of the file as received, hex */
                        checksum: string;
                        status: "pending" | "loading" | "loaded" | "failed" | "partially_loaded" | "skipped_duplicate";
                        forced: boolean;
                        reload_of: string | null;
                        rows_parsed: number;
                        rows_loaded: number;
                        error_count: number;
                        first_error: {
                            line: number;
                            column: string | null;
                            message: string;
                        } | null;
                        /** @description Whether the file is still kept, so that it can be reloaded */
                        available: boolean;
                        /** @description A member of a zip archive: the history row of the archive it was expanded from */
                        archive_id: string | null;
                        /** @description A member of a zip archive: its path in the archive (the row's name is <archive name>/<member path>) */
                        archive_member: string | null;
                        execution_id: string | null;
                        /** Format: date-time */
                        created_at: string;
                        finished_at: string | null;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    runFileIngestion: {
        parameters: {
            query?: {
                /** @description Load files already loaded as well */
                force?: boolean;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        kind: string;
                        status: "queued" | "running" | "succeeded" | "partially_failed" | "failed" | "cancelled";
                        params: {
                            [key: string]: unknown;
                        };
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        started_at: string | null;
                        finished_at: string | null;
                        duration_ms: number | null;
                        attempts: number;
                        rows_read: number;
                        rows_written: number;
                        /** @description Bytes of the source data: the bulk stream when there is one, else an estimate from the values */
                        bytes_read: number;
                        /** @description Bytes the destination was sent, as its connector reports them */
                        bytes_written: number;
                        error: string | null;
                        cancel_requested: boolean;
                        retry_of: string | null;
                        /** @description Pipeline runs: the pipeline */
                        pipeline_id: string | null;
                        /** @description Pipeline runs started by a schedule: the schedule */
                        schedule_id: string | null;
                        /** @description Pipeline runs: what started the run */
                        trigger: "manual" | "schedule" | "dependency" | "retry" | null;
                        /** @description Pipeline runs: the first execution of the cascade of dependent pipelines this run belongs to */
                        dag_run_id: string | null;
                        /** @description The detail of a queued or running execution only: its rate and an estimate of the time left */
                        progress?: {
                            /** @description Rows read per second since the run started; null before it starts */
                            rows_per_second: number | null;
                            /** @description Rows the latest succeeded run of the same item read: what this one is expected to read; null when none succeeded */
                            rows_expected: number | null;
                            /** @description Estimated time left at the current rate, from rows_expected; null without an estimate or once past it */
                            seconds_left: number | null;
                        };
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listInboxs: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            project_id: string;
                            name: string;
                            /** @description POST here (relative to the service URL) to send data */
                            receive_path: string;
                            /** @description Secrets never shown */
                            auth: {
                                kind: string;
                            } & {
                                [key: string]: unknown;
                            };
                            content_types: string[];
                            max_body_bytes: number;
                            dedupe: {
                                [key: string]: unknown;
                            } | null;
                            destination: {
                                [key: string]: unknown;
                            };
                            rate_limit_per_minute: number;
                            retention_days: number;
                            created_by: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                            /** @description The bearer token or HMAC secret the service generated: in this answer only */
                            secret?: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createInbox: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    project_id: string;
                    name: string;
                    content_types?: ("application/json" | "application/x-ndjson" | "text/csv")[];
                    max_body_bytes?: number;
                    dedupe?: {
                        header?: string;
                        json_path?: string;
                        window_seconds?: number;
                    } | null;
                    destination: {
                        /** Format: uuid */
                        connector_id: string;
                        namespace?: string | null;
                        table: string;
                        mode: "append" | "upsert";
                        key_columns?: string[];
                    };
                    rate_limit_per_minute?: number;
                    retention_days?: number;
                    auth: {
                        /**
                         * @description A token generated by the service, shown once at creation
                         * @enum {string}
                         */
                        kind: "bearer";
                    } | {
                        /** @enum {string} */
                        kind: "basic";
                        username: string;
                        password: string;
                    } | {
                        /** @enum {string} */
                        kind: "hmac";
                        header?: string;
                        algorithm?: "sha256" | "sha512";
                        /** @description Generated and shown once when omitted */
                        secret?: string;
                        timestamp_header?: string;
                        tolerance_seconds?: number;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        /** @description POST here (relative to the service URL) to send data */
                        receive_path: string;
                        /** @description Secrets never shown */
                        auth: {
                            kind: string;
                        } & {
                            [key: string]: unknown;
                        };
                        content_types: string[];
                        max_body_bytes: number;
                        dedupe: {
                            [key: string]: unknown;
                        } | null;
                        destination: {
                            [key: string]: unknown;
                        };
                        rate_limit_per_minute: number;
                        retention_days: number;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        /** @description The bearer token or HMAC secret the service generated: in this answer only */
                        secret?: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getInbox: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        /** @description POST here (relative to the service URL) to send data */
                        receive_path: string;
                        /** @description Secrets never shown */
                        auth: {
                            kind: string;
                        } & {
                            [key: string]: unknown;
                        };
                        content_types: string[];
                        max_body_bytes: number;
                        dedupe: {
                            [key: string]: unknown;
                        } | null;
                        destination: {
                            [key: string]: unknown;
                        };
                        rate_limit_per_minute: number;
                        retention_days: number;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        /** @description The bearer token or HMAC secret the service generated: in this answer only */
                        secret?: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteInbox: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateInbox: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    content_types?: ("application/json" | "application/x-ndjson" | "text/csv")[];
                    max_body_bytes?: number;
                    dedupe?: {
                        header?: string;
                        json_path?: string;
                        window_seconds?: number;
                    } | null;
                    destination?: {
                        /** Format: uuid */
                        connector_id: string;
                        namespace?: string | null;
                        table: string;
                        mode: "append" | "upsert";
                        key_columns?: string[];
                    };
                    rate_limit_per_minute?: number;
                    retention_days?: number;
                    auth?: {
                        /**
                         * @description A token generated by the service, shown once at creation
                         * @enum {string}
                         */
                        kind: "bearer";
                    } | {
                        /** @enum {string} */
                        kind: "basic";
                        username: string;
                        password: string;
                    } | {
                        /** @enum {string} */
                        kind: "hmac";
                        header?: string;
                        algorithm?: "sha256" | "sha512";
                        /** @description Generated and shown once when omitted */
                        secret?: string;
                        timestamp_header?: string;
                        tolerance_seconds?: number;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        /** @description POST here (relative to the service URL) to send data */
                        receive_path: string;
                        /** @description Secrets never shown */
                        auth: {
                            kind: string;
                        } & {
                            [key: string]: unknown;
                        };
                        content_types: string[];
                        max_body_bytes: number;
                        dedupe: {
                            [key: string]: unknown;
                        } | null;
                        destination: {
                            [key: string]: unknown;
                        };
                        rate_limit_per_minute: number;
                        retention_days: number;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        /** @description The bearer token or HMAC secret the service generated: in this answer only */
                        secret?: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listInboxRequests: {
        parameters: {
            query?: {
                status?: "accepted" | "rejected";
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            inbox_id: string;
                            /** Format: date-time */
                            received_at: string;
                            status: "accepted" | "rejected";
                            reason: string | null;
                            content_type: string | null;
                            size: number;
                            dedupe_key: string | null;
                            dedupe_hit: boolean;
                            body_kept: boolean;
                            load_status: string | null;
                            rows_loaded: number;
                            error: string | null;
                            replay_of: string | null;
                            loaded_at: string | null;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    replayInboxRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                request_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        inbox_id: string;
                        /** Format: date-time */
                        received_at: string;
                        status: "accepted" | "rejected";
                        reason: string | null;
                        content_type: string | null;
                        size: number;
                        dedupe_key: string | null;
                        dedupe_hit: boolean;
                        body_kept: boolean;
                        load_status: string | null;
                        rows_loaded: number;
                        error: string | null;
                        replay_of: string | null;
                        loaded_at: string | null;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    receiveInboxData: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** @enum {string} */
                        status: "accepted";
                        /** @description The dedupe key was seen within the window: recorded, not loaded again */
                        duplicate: boolean;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listEmailFeeds: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            project_id: string;
                            name: string;
                            host: string;
                            port: number;
                            tls: boolean;
                            username: string;
                            has_password: boolean;
                            mailbox: string;
                            filters: {
                                [key: string]: unknown;
                            };
                            load: {
                                kind: string;
                            } & {
                                [key: string]: unknown;
                            };
                            post_action: string;
                            move_to: string | null;
                            destination: {
                                [key: string]: unknown;
                            };
                            poll_interval_seconds: number | null;
                            next_poll_at: string | null;
                            /** @description Whether a worker watches the mailbox with IMAP IDLE */
                            idle: boolean;
                            status: "active" | "degraded";
                            /** @description degraded: why the mailbox could not be read */
                            status_reason: string | null;
                            status_changed_at: string | null;
                            /** @description The mailbox's UIDVALIDITY last seen */
                            uid_validity: string | null;
                            /** @description The highest UID handled under that UIDVALIDITY */
                            last_uid: string;
                            last_polled_at: string | null;
                            created_by: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createEmailFeed: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    project_id: string;
                    name: string;
                    host: string;
                    port: number;
                    /** @description IMAP over TLS (port 993 usually); false: plain, upgraded by STARTTLS when offered */
                    tls: boolean;
                    username: string;
                    /** @description Write-only; kept encrypted */
                    password: string;
                    /** @description Default: INBOX */
                    mailbox?: string;
                    filters?: {
                        /** @description Only messages whose sender contains this */
                        from?: string;
                        /** @description A regular expression the subject must match (case-insensitive) */
                        subject_pattern?: string;
                        /**
                         * Format: date
                         * @description Only messages received on or after this day (YYYY-MM-DD)
                         */
                        since?: string;
                    };
                    load: {
                        /**
                         * @description Load the attachments that match, each as a file
                         * @enum {string}
                         */
                        kind: "attachments";
                        /** @description File name glob; default * */
                        glob?: string;
                        /** @description Accepted MIME types (any, when omitted) */
                        mime_types?: string[];
                        /** @description Default: from the name (.csv, .json, .ndjson/.jsonl, .xlsx, .parquet), then the MIME type */
                        format?: "csv" | "json" | "ndjson" | "xlsx" | "parquet";
                        /** @description CSV: default , */
                        delimiter?: string;
                    } | {
                        /**
                         * @description One row per message: message_id, sender, recipients, subject, sent_at, text
                         * @enum {string}
                         */
                        kind: "message_fields";
                    };
                    /** @description What happens to a message once loaded */
                    post_action?: "none" | "mark_seen" | "move" | "delete";
                    /** @description post_action move: the folder */
                    move_to?: string | null;
                    destination: {
                        /** Format: uuid */
                        connector_id: string;
                        namespace?: string | null;
                        table: string;
                        mode: "append" | "overwrite" | "upsert";
                        key_columns?: string[];
                    };
                    /** @description Look for new messages this often (none: only on request) */
                    poll_interval_seconds?: number | null;
                    /** @description Keep a connection open and wait for new mail with IMAP IDLE: a new message starts a run within seconds (default false). A hint only: every (re)connection looks for messages missed meanwhile, and the poll interval still applies */
                    idle?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        host: string;
                        port: number;
                        tls: boolean;
                        username: string;
                        has_password: boolean;
                        mailbox: string;
                        filters: {
                            [key: string]: unknown;
                        };
                        load: {
                            kind: string;
                        } & {
                            [key: string]: unknown;
                        };
                        post_action: string;
                        move_to: string | null;
                        destination: {
                            [key: string]: unknown;
                        };
                        poll_interval_seconds: number | null;
                        next_poll_at: string | null;
                        /** @description Whether a worker watches the mailbox with IMAP IDLE */
                        idle: boolean;
                        status: "active" | "degraded";
                        /** @description degraded: why the mailbox could not be read */
                        status_reason: string | null;
                        status_changed_at: string | null;
                        /** @description The mailbox's UIDVALIDITY last seen */
                        uid_validity: string | null;
                        /** @description The highest UID handled under that UIDVALIDITY */
                        last_uid: string;
                        last_polled_at: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getEmailFeed: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        host: string;
                        port: number;
                        tls: boolean;
                        username: string;
                        has_password: boolean;
                        mailbox: string;
                        filters: {
                            [key: string]: unknown;
                        };
                        load: {
                            kind: string;
                        } & {
                            [key: string]: unknown;
                        };
                        post_action: string;
                        move_to: string | null;
                        destination: {
                            [key: string]: unknown;
                        };
                        poll_interval_seconds: number | null;
                        next_poll_at: string | null;
                        /** @description Whether a worker watches the mailbox with IMAP IDLE */
                        idle: boolean;
                        status: "active" | "degraded";
                        /** @description degraded: why the mailbox could not be read */
                        status_reason: string | null;
                        status_changed_at: string | null;
                        /** @description The mailbox's UIDVALIDITY last seen */
                        uid_validity: string | null;
                        /** @description The highest UID handled under that UIDVALIDITY */
                        last_uid: string;
                        last_polled_at: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteEmailFeed: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateEmailFeed: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    host?: string;
                    port?: number;
                    /** @description IMAP over TLS (port 993 usually); false: plain, upgraded by STARTTLS when offered */
                    tls?: boolean;
                    username?: string;
                    /** @description Write-only; kept encrypted */
                    password?: string;
                    /** @description Default: INBOX */
                    mailbox?: string;
                    filters?: {
                        /** @description Only messages whose sender contains this */
                        from?: string;
                        /** @description A regular expression the subject must match (case-insensitive) */
                        subject_pattern?: string;
                        /**
                         * Format: date
                         * @description Only messages received on or after this day (YYYY-MM-DD)
                         */
                        since?: string;
                    };
                    load?: {
                        /**
                         * @description Load the attachments that match, each as a file
                         * @enum {string}
                         */
                        kind: "attachments";
                        /** @description File name glob; default * */
                        glob?: string;
                        /** @description Accepted MIME types (any, when omitted) */
                        mime_types?: string[];
                        /** @description Default: from the name (.csv, .json, .ndjson/.jsonl, .xlsx, .parquet), then the MIME type */
                        format?: "csv" | "json" | "ndjson" | "xlsx" | "parquet";
                        /** @description CSV: default , */
                        delimiter?: string;
                    } | {
                        /**
                         * @description One row per message: message_id, sender, recipients, subject, sent_at, text
                         * @enum {string}
                         */
                        kind: "message_fields";
                    };
                    /** @description What happens to a message once loaded */
                    post_action?: "none" | "mark_seen" | "move" | "delete";
                    /** @description post_action move: the folder */
                    move_to?: string | null;
                    destination?: {
                        /** Format: uuid */
                        connector_id: string;
                        namespace?: string | null;
                        table: string;
                        mode: "append" | "overwrite" | "upsert";
                        key_columns?: string[];
                    };
                    /** @description Look for new messages this often (none: only on request) */
                    poll_interval_seconds?: number | null;
                    /** @description Keep a connection open and wait for new mail with IMAP IDLE: a new message starts a run within seconds (default false). A hint only: every (re)connection looks for messages missed meanwhile, and the poll interval still applies */
                    idle?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        host: string;
                        port: number;
                        tls: boolean;
                        username: string;
                        has_password: boolean;
                        mailbox: string;
                        filters: {
                            [key: string]: unknown;
                        };
                        load: {
                            kind: string;
                        } & {
                            [key: string]: unknown;
                        };
                        post_action: string;
                        move_to: string | null;
                        destination: {
                            [key: string]: unknown;
                        };
                        poll_interval_seconds: number | null;
                        next_poll_at: string | null;
                        /** @description Whether a worker watches the mailbox with IMAP IDLE */
                        idle: boolean;
                        status: "active" | "degraded";
                        /** @description degraded: why the mailbox could not be read */
                        status_reason: string | null;
                        status_changed_at: string | null;
                        /** @description The mailbox's UIDVALIDITY last seen */
                        uid_validity: string | null;
                        /** @description The highest UID handled under that UIDVALIDITY */
                        last_uid: string;
                        last_polled_at: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listEmailFeedMessages: {
        parameters: {
            query?: {
                status?: "loaded" | "partially_loaded" | "failed" | "skipped";
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            feed_id: string;
                            uid_validity: string;
                            uid: string;
                            message_id: string | null;
                            from: string | null;
                            subject: string | null;
                            sent_at: string | null;
                            attachments: {
                                filename: string;
                                content_type: string;
                                size: number;
                                /** @description Whether it matched and was loaded */
                                loaded: boolean;
                                rows_loaded: number;
                                error: string | null;
                            }[];
                            rows_loaded: number;
                            status: "loaded" | "partially_loaded" | "failed" | "skipped";
                            error: string | null;
                            execution_id: string | null;
                            /** Format: date-time */
                            created_at: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    reloadEmailFeedMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                message_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        kind: string;
                        status: "queued" | "running" | "succeeded" | "partially_failed" | "failed" | "cancelled";
                        params: {
                            [key: string]: unknown;
                        };
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        started_at: string | null;
                        finished_at: string | null;
                        duration_ms: number | null;
                        attempts: number;
                        rows_read: number;
                        rows_written: number;
                        /** @description Bytes of the source data: the bulk stream when there is one, else an estimate from the values */
                        bytes_read: number;
                        /** @description Bytes the destination was sent, as its connector reports them */
                        bytes_written: number;
                        error: string | null;
                        cancel_requested: boolean;
                        retry_of: string | null;
                        /** @description Pipeline runs: the pipeline */
                        pipeline_id: string | null;
                        /** @description Pipeline runs started by a schedule: the schedule */
                        schedule_id: string | null;
                        /** @description Pipeline runs: what started the run */
                        trigger: "manual" | "schedule" | "dependency" | "retry" | null;
                        /** @description Pipeline runs: the first execution of the cascade of dependent pipelines this run belongs to */
                        dag_run_id: string | null;
                        /** @description The detail of a queued or running execution only: its rate and an estimate of the time left */
                        progress?: {
                            /** @description Rows read per second since the run started; null before it starts */
                            rows_per_second: number | null;
                            /** @description Rows the latest succeeded run of the same item read: what this one is expected to read; null when none succeeded */
                            rows_expected: number | null;
                            /** @description Estimated time left at the current rate, from rows_expected; null without an estimate or once past it */
                            seconds_left: number | null;
                        };
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    runEmailFeed: {
        parameters: {
            query?: {
                /** @description Read the mailbox from its first message again (messages loaded already are still skipped) */
                from_start?: boolean;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        kind: string;
                        status: "queued" | "running" | "succeeded" | "partially_failed" | "failed" | "cancelled";
                        params: {
                            [key: string]: unknown;
                        };
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        started_at: string | null;
                        finished_at: string | null;
                        duration_ms: number | null;
                        attempts: number;
                        rows_read: number;
                        rows_written: number;
                        /** @description Bytes of the source data: the bulk stream when there is one, else an estimate from the values */
                        bytes_read: number;
                        /** @description Bytes the destination was sent, as its connector reports them */
                        bytes_written: number;
                        error: string | null;
                        cancel_requested: boolean;
                        retry_of: string | null;
                        /** @description Pipeline runs: the pipeline */
                        pipeline_id: string | null;
                        /** @description Pipeline runs started by a schedule: the schedule */
                        schedule_id: string | null;
                        /** @description Pipeline runs: what started the run */
                        trigger: "manual" | "schedule" | "dependency" | "retry" | null;
                        /** @description Pipeline runs: the first execution of the cascade of dependent pipelines this run belongs to */
                        dag_run_id: string | null;
                        /** @description The detail of a queued or running execution only: its rate and an estimate of the time left */
                        progress?: {
                            /** @description Rows read per second since the run started; null before it starts */
                            rows_per_second: number | null;
                            /** @description Rows the latest succeeded run of the same item read: what this one is expected to read; null when none succeeded */
                            rows_expected: number | null;
                            /** @description Estimated time left at the current rate, from rows_expected; null without an estimate or once past it */
                            seconds_left: number | null;
                        };
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listExports: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            project_id: string;
                            name: string;
                            description: string;
                            source: {
                                [key: string]: unknown;
                            };
                            columns: string[] | null;
                            filter: string | null;
                            /** @description Secret fields are never shown: secrets_set names those that are set */
                            destination: {
                                [key: string]: unknown;
                            };
                            secrets_set: string[];
                            format: {
                                [key: string]: unknown;
                            };
                            mode: string;
                            key_columns: string[];
                            cursor_column: string | null;
                            schedule: {
                                cron: string | null;
                                timezone: string;
                                interval_seconds: number | null;
                                /** @description Due times missed while no scheduler ran (beyond SVC_SCHEDULER_GRACE_SECONDS): skip them, or run once for all of them */
                                missed_policy: "skip" | "run_once";
                                paused: boolean;
                                /** @description null while paused */
                                next_due_at: string | null;
                                /** @description Whom scheduled runs act for (masking): who last set the schedule or changed what the export reads or where it delivers */
                                owner_id: string | null;
                            } | null;
                            created_by: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createExport: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    project_id: string;
                    name: string;
                    description?: string;
                    source: {
                        /** @description warehouse_query: a SELECT over the project's own warehouse schema, run as the project's warehouse role; connector: a dataset of a data connector of the project, read through the engine; pipeline: the output of a pipeline of the project (the table its destination connector holds) */
                        kind: "warehouse_query" | "connector" | "pipeline";
                        /** Format: uuid */
                        pipeline_id?: string;
                        /** @description warehouse_query: the SELECT */
                        query?: string;
                        /** @description warehouse_query: the project's schema the query runs in (default main) */
                        schema?: string;
                        /** Format: uuid */
                        connector_id?: string;
                        namespace?: string | null;
                        dataset?: string;
                    };
                    columns?: string[];
                    /** @description A SQL condition over the source columns (warehouse_query sources) */
                    filter?: string;
                    destination: {
                        /** @description files, s3, sftp, http or database (docs/exports.md) */
                        kind: string;
                    } & {
                        [key: string]: unknown;
                    };
                    format?: {
                        /** @description csv, ndjson or parquet */
                        type: string;
                    } & {
                        [key: string]: unknown;
                    };
                    /** @description full: every row each run; incremental: rows past the cursor column; diff: only rows added, changed or removed since the previous run (by key_columns) */
                    mode?: "full" | "incremental" | "diff";
                    key_columns?: string[];
                    cursor_column?: string;
                    schedule?: {
                        cron?: string | null;
                        /** @description IANA time zone of the cron expression (default UTC) */
                        timezone?: string;
                        interval_seconds?: number | null;
                        /** @description Due times missed while no scheduler ran (beyond SVC_SCHEDULER_GRACE_SECONDS): skip them, or run once for all of them */
                        missed_policy?: "skip" | "run_once";
                        paused?: boolean;
                    } | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        description: string;
                        source: {
                            [key: string]: unknown;
                        };
                        columns: string[] | null;
                        filter: string | null;
                        /** @description Secret fields are never shown: secrets_set names those that are set */
                        destination: {
                            [key: string]: unknown;
                        };
                        secrets_set: string[];
                        format: {
                            [key: string]: unknown;
                        };
                        mode: string;
                        key_columns: string[];
                        cursor_column: string | null;
                        schedule: {
                            cron: string | null;
                            timezone: string;
                            interval_seconds: number | null;
                            /** @description Due times missed while no scheduler ran (beyond SVC_SCHEDULER_GRACE_SECONDS): skip them, or run once for all of them */
                            missed_policy: "skip" | "run_once";
                            paused: boolean;
                            /** @description null while paused */
                            next_due_at: string | null;
                            /** @description Whom scheduled runs act for (masking): who last set the schedule or changed what the export reads or where it delivers */
                            owner_id: string | null;
                        } | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getExport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        description: string;
                        source: {
                            [key: string]: unknown;
                        };
                        columns: string[] | null;
                        filter: string | null;
                        /** @description Secret fields are never shown: secrets_set names those that are set */
                        destination: {
                            [key: string]: unknown;
                        };
                        secrets_set: string[];
                        format: {
                            [key: string]: unknown;
                        };
                        mode: string;
                        key_columns: string[];
                        cursor_column: string | null;
                        schedule: {
                            cron: string | null;
                            timezone: string;
                            interval_seconds: number | null;
                            /** @description Due times missed while no scheduler ran (beyond SVC_SCHEDULER_GRACE_SECONDS): skip them, or run once for all of them */
                            missed_policy: "skip" | "run_once";
                            paused: boolean;
                            /** @description null while paused */
                            next_due_at: string | null;
                            /** @description Whom scheduled runs act for (masking): who last set the schedule or changed what the export reads or where it delivers */
                            owner_id: string | null;
                        } | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteExport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateExport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    description?: string;
                    source?: {
                        /** @description warehouse_query: a SELECT over the project's own warehouse schema, run as the project's warehouse role; connector: a dataset of a data connector of the project, read through the engine; pipeline: the output of a pipeline of the project (the table its destination connector holds) */
                        kind: "warehouse_query" | "connector" | "pipeline";
                        /** Format: uuid */
                        pipeline_id?: string;
                        /** @description warehouse_query: the SELECT */
                        query?: string;
                        /** @description warehouse_query: the project's schema the query runs in (default main) */
                        schema?: string;
                        /** Format: uuid */
                        connector_id?: string;
                        namespace?: string | null;
                        dataset?: string;
                    };
                    columns?: string[] | null;
                    filter?: string | null;
                    destination?: {
                        /** @description files, s3, sftp, http or database (docs/exports.md) */
                        kind: string;
                    } & {
                        [key: string]: unknown;
                    };
                    format?: {
                        /** @description csv, ndjson or parquet */
                        type: string;
                    } & {
                        [key: string]: unknown;
                    };
                    /** @description full: every row each run; incremental: rows past the cursor column; diff: only rows added, changed or removed since the previous run (by key_columns) */
                    mode?: "full" | "incremental" | "diff";
                    key_columns?: string[];
                    cursor_column?: string | null;
                    schedule?: {
                        cron?: string | null;
                        /** @description IANA time zone of the cron expression (default UTC) */
                        timezone?: string;
                        interval_seconds?: number | null;
                        /** @description Due times missed while no scheduler ran (beyond SVC_SCHEDULER_GRACE_SECONDS): skip them, or run once for all of them */
                        missed_policy?: "skip" | "run_once";
                        paused?: boolean;
                    } | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        description: string;
                        source: {
                            [key: string]: unknown;
                        };
                        columns: string[] | null;
                        filter: string | null;
                        /** @description Secret fields are never shown: secrets_set names those that are set */
                        destination: {
                            [key: string]: unknown;
                        };
                        secrets_set: string[];
                        format: {
                            [key: string]: unknown;
                        };
                        mode: string;
                        key_columns: string[];
                        cursor_column: string | null;
                        schedule: {
                            cron: string | null;
                            timezone: string;
                            interval_seconds: number | null;
                            /** @description Due times missed while no scheduler ran (beyond SVC_SCHEDULER_GRACE_SECONDS): skip them, or run once for all of them */
                            missed_policy: "skip" | "run_once";
                            paused: boolean;
                            /** @description null while paused */
                            next_due_at: string | null;
                            /** @description Whom scheduled runs act for (masking): who last set the schedule or changed what the export reads or where it delivers */
                            owner_id: string | null;
                        } | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    runExport: {
        parameters: {
            query?: {
                /** @description Send every row, whatever the previous snapshot and the cursor say */
                full_resync?: boolean;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        kind: string;
                        status: "queued" | "running" | "succeeded" | "partially_failed" | "failed" | "cancelled";
                        params: {
                            [key: string]: unknown;
                        };
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        started_at: string | null;
                        finished_at: string | null;
                        duration_ms: number | null;
                        attempts: number;
                        rows_read: number;
                        rows_written: number;
                        /** @description Bytes of the source data: the bulk stream when there is one, else an estimate from the values */
                        bytes_read: number;
                        /** @description Bytes the destination was sent, as its connector reports them */
                        bytes_written: number;
                        error: string | null;
                        cancel_requested: boolean;
                        retry_of: string | null;
                        /** @description Pipeline runs: the pipeline */
                        pipeline_id: string | null;
                        /** @description Pipeline runs started by a schedule: the schedule */
                        schedule_id: string | null;
                        /** @description Pipeline runs: what started the run */
                        trigger: "manual" | "schedule" | "dependency" | "retry" | null;
                        /** @description Pipeline runs: the first execution of the cascade of dependent pipelines this run belongs to */
                        dag_run_id: string | null;
                        /** @description The detail of a queued or running execution only: its rate and an estimate of the time left */
                        progress?: {
                            /** @description Rows read per second since the run started; null before it starts */
                            rows_per_second: number | null;
                            /** @description Rows the latest succeeded run of the same item read: what this one is expected to read; null when none succeeded */
                            rows_expected: number | null;
                            /** @description Estimated time left at the current rate, from rows_expected; null without an estimate or once past it */
                            seconds_left: number | null;
                        };
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listExportRuns: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            execution_id: string;
                            /** Format: uuid */
                            export_id: string;
                            /** @description running, succeeded, partially_failed, failed or cancelled */
                            status: string;
                            trigger: "manual" | "schedule";
                            full_resync: boolean;
                            extracted: number;
                            added: number;
                            changed: number;
                            removed: number;
                            delivered: number;
                            failed: number;
                            files: {
                                /** @description Path inside the destination (the project's files folder, bucket or directory) */
                                name: string;
                                rows: number;
                                bytes: number;
                            }[];
                            error: string | null;
                            /** Format: date-time */
                            started_at: string;
                            finished_at: string | null;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createExportDownloadLink: {
        parameters: {
            query?: {
                /** @description Index in the run's files */
                file?: number;
                expires_in_seconds?: number;
            };
            header?: never;
            path: {
                id: string;
                run: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description GET it with a token that may read the export, before expires_at */
                        url: string;
                        file: string;
                        /** Format: date-time */
                        expires_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    downloadExportFile: {
        parameters: {
            query?: {
                file?: number;
                /** @description Unix seconds */
                expires?: number;
                signature?: string;
            };
            header?: never;
            path: {
                id: string;
                run: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file (CSV, NDJSON, gzip) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listExportFailedRows: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            row_key: string;
                            /** Format: uuid */
                            execution_id: string;
                            reason: string;
                            record: {
                                [key: string]: unknown;
                            };
                            attempts: number;
                            /** Format: date-time */
                            failed_at: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listModelSchedules: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            project_id: string;
                            name: string;
                            select: string[];
                            full_refresh: boolean;
                            cron: string | null;
                            timezone: string;
                            interval_seconds: number | null;
                            /** @description Due times missed while no scheduler ran (beyond SVC_SCHEDULER_GRACE_SECONDS): skip them, or run once for all of them */
                            missed_policy: "skip" | "run_once";
                            paused: boolean;
                            /** @description null while paused */
                            next_due_at: string | null;
                            last_execution_id: string | null;
                            created_by: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createModelSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    project_id: string;
                    name: string;
                    /** @description name, +name (with upstream), name+ (with downstream), tag:x; none: every model */
                    select?: string[];
                    /** @description Build incremental models whole instead of adding to them */
                    full_refresh?: boolean;
                    cron?: string | null;
                    /** @description IANA time zone of the cron expression (default UTC) */
                    timezone?: string;
                    interval_seconds?: number | null;
                    /** @description Due times missed while no scheduler ran (beyond SVC_SCHEDULER_GRACE_SECONDS): skip them, or run once for all of them */
                    missed_policy?: "skip" | "run_once";
                    paused?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        select: string[];
                        full_refresh: boolean;
                        cron: string | null;
                        timezone: string;
                        interval_seconds: number | null;
                        /** @description Due times missed while no scheduler ran (beyond SVC_SCHEDULER_GRACE_SECONDS): skip them, or run once for all of them */
                        missed_policy: "skip" | "run_once";
                        paused: boolean;
                        /** @description null while paused */
                        next_due_at: string | null;
                        last_execution_id: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getModelSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        select: string[];
                        full_refresh: boolean;
                        cron: string | null;
                        timezone: string;
                        interval_seconds: number | null;
                        /** @description Due times missed while no scheduler ran (beyond SVC_SCHEDULER_GRACE_SECONDS): skip them, or run once for all of them */
                        missed_policy: "skip" | "run_once";
                        paused: boolean;
                        /** @description null while paused */
                        next_due_at: string | null;
                        last_execution_id: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteModelSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateModelSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /** @description name, +name (with upstream), name+ (with downstream), tag:x; none: every model */
                    select?: string[];
                    /** @description Build incremental models whole instead of adding to them */
                    full_refresh?: boolean;
                    cron?: string | null;
                    /** @description IANA time zone of the cron expression (default UTC) */
                    timezone?: string;
                    interval_seconds?: number | null;
                    /** @description Due times missed while no scheduler ran (beyond SVC_SCHEDULER_GRACE_SECONDS): skip them, or run once for all of them */
                    missed_policy?: "skip" | "run_once";
                    paused?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        select: string[];
                        full_refresh: boolean;
                        cron: string | null;
                        timezone: string;
                        interval_seconds: number | null;
                        /** @description Due times missed while no scheduler ran (beyond SVC_SCHEDULER_GRACE_SECONDS): skip them, or run once for all of them */
                        missed_policy: "skip" | "run_once";
                        paused: boolean;
                        /** @description null while paused */
                        next_due_at: string | null;
                        last_execution_id: string | null;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getModelGraph: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        nodes: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            project_id: string;
                            name: string;
                            materialization: string;
                            tags: string[];
                            sources: {
                                schema: string;
                                table: string;
                            }[];
                        }[];
                        edges: {
                            /**
                             * Format: uuid
                             * @description The id of the model referred to
                             */
                            from: string;
                            /** Format: uuid */
                            to: string;
                        }[];
                        /** @description The models' ids in dependency order (project by project) */
                        order: string[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    runModels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    project_id: string;
                    /** @description name, +name (with upstream), name+ (with downstream), tag:x; none: every model */
                    select?: string[];
                    /** @description Build incremental models whole instead of adding to them */
                    full_refresh?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        kind: string;
                        status: "queued" | "running" | "succeeded" | "partially_failed" | "failed" | "cancelled";
                        params: {
                            [key: string]: unknown;
                        };
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        started_at: string | null;
                        finished_at: string | null;
                        duration_ms: number | null;
                        attempts: number;
                        rows_read: number;
                        rows_written: number;
                        /** @description Bytes of the source data: the bulk stream when there is one, else an estimate from the values */
                        bytes_read: number;
                        /** @description Bytes the destination was sent, as its connector reports them */
                        bytes_written: number;
                        error: string | null;
                        cancel_requested: boolean;
                        retry_of: string | null;
                        /** @description Pipeline runs: the pipeline */
                        pipeline_id: string | null;
                        /** @description Pipeline runs started by a schedule: the schedule */
                        schedule_id: string | null;
                        /** @description Pipeline runs: what started the run */
                        trigger: "manual" | "schedule" | "dependency" | "retry" | null;
                        /** @description Pipeline runs: the first execution of the cascade of dependent pipelines this run belongs to */
                        dag_run_id: string | null;
                        /** @description The detail of a queued or running execution only: its rate and an estimate of the time left */
                        progress?: {
                            /** @description Rows read per second since the run started; null before it starts */
                            rows_per_second: number | null;
                            /** @description Rows the latest succeeded run of the same item read: what this one is expected to read; null when none succeeded */
                            rows_expected: number | null;
                            /** @description Estimated time left at the current rate, from rows_expected; null without an estimate or once past it */
                            seconds_left: number | null;
                        };
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getModelRunResults: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        execution_id: string;
                        /** @description The execution's status */
                        status: string;
                        results: {
                            model: string;
                            model_id: string | null;
                            materialization: string;
                            status: "success" | "error" | "skipped";
                            rows: number | null;
                            duration_ms: number;
                            tests: {
                                name: string;
                                type: string;
                                severity: string;
                                status: "pass" | "warn" | "fail" | "error";
                                failures: number | null;
                                message: string | null;
                            }[];
                            error: string | null;
                            finished_at: string | null;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listModels: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            project_id: string;
                            name: string;
                            description: string;
                            sql: string;
                            materialization: string;
                            unique_key: string[];
                            incremental_strategy: string;
                            on_schema_change: string;
                            tags: string[];
                            tests: ({
                                /** @enum {string} */
                                type: "not_null";
                                column: string;
                                /** @description Default error */
                                severity?: "warn" | "error";
                            } | {
                                /** @enum {string} */
                                type: "unique";
                                column: string;
                                /** @description Default error */
                                severity?: "warn" | "error";
                            } | {
                                /** @enum {string} */
                                type: "accepted_values";
                                column: string;
                                values: string[];
                                /** @description Default error */
                                severity?: "warn" | "error";
                            } | {
                                /** @enum {string} */
                                type: "relationships";
                                column: string;
                                /** @description The relation the model builds: lower-case letters, digits and _, unique in the project */
                                to: string;
                                field: string;
                                /** @description Default error */
                                severity?: "warn" | "error";
                            } | {
                                /** @enum {string} */
                                type: "custom_sql";
                                name: string;
                                /** @description A SELECT of the failing rows; may use ref(), source() and this */
                                sql: string;
                                /** @description Default error */
                                severity?: "warn" | "error";
                            })[];
                            /** @description Models this one refers to, read from its SQL */
                            refs: string[];
                            sources: {
                                schema: string;
                                table: string;
                            }[];
                            /** @description The PostgreSQL relation it builds (schema.name); null for an ephemeral model */
                            relation: string | null;
                            version: number;
                            created_by: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createModel: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    project_id: string;
                    /** @description The relation the model builds: lower-case letters, digits and _, unique in the project */
                    name: string;
                    description?: string;
                    /** @description One SELECT; {{ ref('model') }}, {{ source('schema', 'table') }}, {{ this }} and {% if is_incremental() %} ... {% endif %} */
                    sql: string;
                    /** @description ephemeral: built nowhere, inlined as a CTE into the models that ref it */
                    materialization: "view" | "table" | "incremental" | "ephemeral";
                    unique_key?: string[];
                    /** @description How an incremental run adds its rows (merge and delete_insert need unique_key); default merge */
                    incremental_strategy?: "append" | "merge" | "delete_insert";
                    /** @description What an incremental run does when the columns differ from the table; default ignore */
                    on_schema_change?: "ignore" | "fail" | "append_new_columns" | "sync_all_columns" | "full_refresh";
                    tags?: string[];
                    tests?: ({
                        /** @enum {string} */
                        type: "not_null";
                        column: string;
                        /** @description Default error */
                        severity?: "warn" | "error";
                    } | {
                        /** @enum {string} */
                        type: "unique";
                        column: string;
                        /** @description Default error */
                        severity?: "warn" | "error";
                    } | {
                        /** @enum {string} */
                        type: "accepted_values";
                        column: string;
                        values: string[];
                        /** @description Default error */
                        severity?: "warn" | "error";
                    } | {
                        /** @enum {string} */
                        type: "relationships";
                        column: string;
                        /** @description The relation the model builds: lower-case letters, digits and _, unique in the project */
                        to: string;
                        field: string;
                        /** @description Default error */
                        severity?: "warn" | "error";
                    } | {
                        /** @enum {string} */
                        type: "custom_sql";
                        name: string;
                        /** @description A SELECT of the failing rows; may use ref(), source() and this */
                        sql: string;
                        /** @description Default error */
                        severity?: "warn" | "error";
                    })[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        description: string;
                        sql: string;
                        materialization: string;
                        unique_key: string[];
                        incremental_strategy: string;
                        on_schema_change: string;
                        tags: string[];
                        tests: ({
                            /** @enum {string} */
                            type: "not_null";
                            column: string;
                            /** @description Default error */
                            severity?: "warn" | "error";
                        } | {
                            /** @enum {string} */
                            type: "unique";
                            column: string;
                            /** @description Default error */
                            severity?: "warn" | "error";
                        } | {
                            /** @enum {string} */
                            type: "accepted_values";
                            column: string;
                            values: string[];
                            /** @description Default error */
                            severity?: "warn" | "error";
                        } | {
                            /** @enum {string} */
                            type: "relationships";
                            column: string;
                            /** @description The relation the model builds: lower-case letters, digits and _, unique in the project */
                            to: string;
                            field: string;
                            /** @description Default error */
                            severity?: "warn" | "error";
                        } | {
                            /** @enum {string} */
                            type: "custom_sql";
                            name: string;
                            /** @description A SELECT of the failing rows; may use ref(), source() and this */
                            sql: string;
                            /** @description Default error */
                            severity?: "warn" | "error";
                        })[];
                        /** @description Models this one refers to, read from its SQL */
                        refs: string[];
                        sources: {
                            schema: string;
                            table: string;
                        }[];
                        /** @description The PostgreSQL relation it builds (schema.name); null for an ephemeral model */
                        relation: string | null;
                        version: number;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getModel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        description: string;
                        sql: string;
                        materialization: string;
                        unique_key: string[];
                        incremental_strategy: string;
                        on_schema_change: string;
                        tags: string[];
                        tests: ({
                            /** @enum {string} */
                            type: "not_null";
                            column: string;
                            /** @description Default error */
                            severity?: "warn" | "error";
                        } | {
                            /** @enum {string} */
                            type: "unique";
                            column: string;
                            /** @description Default error */
                            severity?: "warn" | "error";
                        } | {
                            /** @enum {string} */
                            type: "accepted_values";
                            column: string;
                            values: string[];
                            /** @description Default error */
                            severity?: "warn" | "error";
                        } | {
                            /** @enum {string} */
                            type: "relationships";
                            column: string;
                            /** @description The relation the model builds: lower-case letters, digits and _, unique in the project */
                            to: string;
                            field: string;
                            /** @description Default error */
                            severity?: "warn" | "error";
                        } | {
                            /** @enum {string} */
                            type: "custom_sql";
                            name: string;
                            /** @description A SELECT of the failing rows; may use ref(), source() and this */
                            sql: string;
                            /** @description Default error */
                            severity?: "warn" | "error";
                        })[];
                        /** @description Models this one refers to, read from its SQL */
                        refs: string[];
                        sources: {
                            schema: string;
                            table: string;
                        }[];
                        /** @description The PostgreSQL relation it builds (schema.name); null for an ephemeral model */
                        relation: string | null;
                        version: number;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteModel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateModel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The relation the model builds: lower-case letters, digits and _, unique in the project */
                    name?: string;
                    description?: string;
                    /** @description One SELECT; {{ ref('model') }}, {{ source('schema', 'table') }}, {{ this }} and {% if is_incremental() %} ... {% endif %} */
                    sql?: string;
                    /** @description ephemeral: built nowhere, inlined as a CTE into the models that ref it */
                    materialization?: "view" | "table" | "incremental" | "ephemeral";
                    unique_key?: string[];
                    /** @description How an incremental run adds its rows (merge and delete_insert need unique_key); default merge */
                    incremental_strategy?: "append" | "merge" | "delete_insert";
                    /** @description What an incremental run does when the columns differ from the table; default ignore */
                    on_schema_change?: "ignore" | "fail" | "append_new_columns" | "sync_all_columns" | "full_refresh";
                    tags?: string[];
                    tests?: ({
                        /** @enum {string} */
                        type: "not_null";
                        column: string;
                        /** @description Default error */
                        severity?: "warn" | "error";
                    } | {
                        /** @enum {string} */
                        type: "unique";
                        column: string;
                        /** @description Default error */
                        severity?: "warn" | "error";
                    } | {
                        /** @enum {string} */
                        type: "accepted_values";
                        column: string;
                        values: string[];
                        /** @description Default error */
                        severity?: "warn" | "error";
                    } | {
                        /** @enum {string} */
                        type: "relationships";
                        column: string;
                        /** @description The relation the model builds: lower-case letters, digits and _, unique in the project */
                        to: string;
                        field: string;
                        /** @description Default error */
                        severity?: "warn" | "error";
                    } | {
                        /** @enum {string} */
                        type: "custom_sql";
                        name: string;
                        /** @description A SELECT of the failing rows; may use ref(), source() and this */
                        sql: string;
                        /** @description Default error */
                        severity?: "warn" | "error";
                    })[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        description: string;
                        sql: string;
                        materialization: string;
                        unique_key: string[];
                        incremental_strategy: string;
                        on_schema_change: string;
                        tags: string[];
                        tests: ({
                            /** @enum {string} */
                            type: "not_null";
                            column: string;
                            /** @description Default error */
                            severity?: "warn" | "error";
                        } | {
                            /** @enum {string} */
                            type: "unique";
                            column: string;
                            /** @description Default error */
                            severity?: "warn" | "error";
                        } | {
                            /** @enum {string} */
                            type: "accepted_values";
                            column: string;
                            values: string[];
                            /** @description Default error */
                            severity?: "warn" | "error";
                        } | {
                            /** @enum {string} */
                            type: "relationships";
                            column: string;
                            /** @description The relation the model builds: lower-case letters, digits and _, unique in the project */
                            to: string;
                            field: string;
                            /** @description Default error */
                            severity?: "warn" | "error";
                        } | {
                            /** @enum {string} */
                            type: "custom_sql";
                            name: string;
                            /** @description A SELECT of the failing rows; may use ref(), source() and this */
                            sql: string;
                            /** @description Default error */
                            severity?: "warn" | "error";
                        })[];
                        /** @description Models this one refers to, read from its SQL */
                        refs: string[];
                        sources: {
                            schema: string;
                            table: string;
                        }[];
                        /** @description The PostgreSQL relation it builds (schema.name); null for an ephemeral model */
                        relation: string | null;
                        version: number;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    compileModel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Unsaved SQL to compile instead of the stored */
                    sql?: string;
                    /** @description Compile the incremental addition ({% if is_incremental() %} parts kept) */
                    incremental?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The SELECT as it runs */
                        sql: string;
                        refs: string[];
                        sources: {
                            schema: string;
                            table: string;
                        }[];
                        relation: string | null;
                        /** @description Each output column and the upstream columns it is computed from, as far as the parser can tell (columns of the SELECT's own FROM; none through subqueries or set operations) */
                        column_lineage: {
                            column: string;
                            inputs: {
                                model?: string;
                                source?: {
                                    schema: string;
                                    table: string;
                                };
                                /** @description * when the expression takes every column */
                                column: string;
                            }[];
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    previewModel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    sql?: string;
                    /** @description Default 100 */
                    limit?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        columns: {
                            name: string;
                            type: string;
                        }[];
                        rows: {
                            [key: string]: unknown;
                        }[];
                        truncated: boolean;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listAiProviders: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            project_id: string | null;
                            name: string;
                            type: string;
                            base_url: string;
                            model: string;
                            /** @description Whether an API key is stored (its value is never answered) */
                            api_key_set: boolean;
                            temperature: number | null;
                            max_tokens: number | null;
                            requests_per_minute: number | null;
                            tokens_per_month: number | null;
                            enabled: boolean;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createAiProvider: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description null or absent: instance-wide (administrators only) */
                    project_id?: string | null;
                    name: string;
                    /** @description openai_compatible: a self-hosted server speaking the OpenAI chat API (Ollama, vLLM, LiteLLM) */
                    type: "openai" | "anthropic" | "openai_compatible";
                    /** @description Default: the public API of openai and anthropic; required for openai_compatible */
                    base_url?: string;
                    model: string;
                    /** @description Write-only: stored encrypted, never answered; null removes it */
                    api_key?: string | null;
                    temperature?: number | null;
                    max_tokens?: number | null;
                    /** @description null: no limit */
                    requests_per_minute?: number | null;
                    /** @description Input and output tokens; null: no limit */
                    tokens_per_month?: number | null;
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        project_id: string | null;
                        name: string;
                        type: string;
                        base_url: string;
                        model: string;
                        /** @description Whether an API key is stored (its value is never answered) */
                        api_key_set: boolean;
                        temperature: number | null;
                        max_tokens: number | null;
                        requests_per_minute: number | null;
                        tokens_per_month: number | null;
                        enabled: boolean;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getAiProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        project_id: string | null;
                        name: string;
                        type: string;
                        base_url: string;
                        model: string;
                        /** @description Whether an API key is stored (its value is never answered) */
                        api_key_set: boolean;
                        temperature: number | null;
                        max_tokens: number | null;
                        requests_per_minute: number | null;
                        tokens_per_month: number | null;
                        enabled: boolean;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteAiProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateAiProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /** @description openai_compatible: a self-hosted server speaking the OpenAI chat API (Ollama, vLLM, LiteLLM) */
                    type?: "openai" | "anthropic" | "openai_compatible";
                    /** @description Default: the public API of openai and anthropic; required for openai_compatible */
                    base_url?: string;
                    model?: string;
                    /** @description Write-only: stored encrypted, never answered; null removes it */
                    api_key?: string | null;
                    temperature?: number | null;
                    max_tokens?: number | null;
                    /** @description null: no limit */
                    requests_per_minute?: number | null;
                    /** @description Input and output tokens; null: no limit */
                    tokens_per_month?: number | null;
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        project_id: string | null;
                        name: string;
                        type: string;
                        base_url: string;
                        model: string;
                        /** @description Whether an API key is stored (its value is never answered) */
                        api_key_set: boolean;
                        temperature: number | null;
                        max_tokens: number | null;
                        requests_per_minute: number | null;
                        tokens_per_month: number | null;
                        enabled: boolean;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    testAiProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        ok: boolean;
                        /** @description The start of the model's answer to a fixed question */
                        reply: string;
                        input_tokens: number;
                        output_tokens: number;
                        duration_ms: number;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getAiProviderUsage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        requests_last_minute: number;
                        tokens_this_month: number;
                        requests_per_minute: number | null;
                        tokens_per_month: number | null;
                        recent: {
                            /** Format: date-time */
                            at: string;
                            project_id: string | null;
                            user_id: string | null;
                            purpose: string;
                            status: string;
                            input_tokens: number;
                            output_tokens: number;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    draftModelWithAi: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    project_id: string;
                    question: string;
                    /** @description Put a few sample rows (masked) of each table into the prompt; default false */
                    include_samples?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Checked: one SELECT reading only ref() and source() of the project */
                        sql: string;
                        refs: string[];
                        sources: {
                            schema: string;
                            table: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    suggestStepsWithAi: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    project_id: string;
                    description: string;
                    columns?: {
                        name: string;
                        type: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Checked against the step schema; nothing is saved */
                        steps: {
                            [key: string]: unknown;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    describeDatasetWithAi: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    dataset_id: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        description: string;
                        columns: {
                            name: string;
                            description: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listNotificationConfigs: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            /** @description null: instance-wide (administrators) */
                            project_id: string | null;
                            name: string;
                            /** @description email (SMTP), slack (incoming webhook), teams (Workflows webhook, Adaptive Card), webhook (JSON, optional HMAC-SHA256 signature), pagerduty (Events API v2) */
                            type: "email" | "slack" | "teams" | "webhook" | "pagerduty";
                            /** @description Plain settings; secrets are never returned */
                            config: {
                                [key: string]: unknown;
                            };
                            /** @description Names of the secret settings that hold a value */
                            secrets_set: string[];
                            enabled: boolean;
                            created_by: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createNotificationConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The owning project; null: instance-wide (administrators) */
                    project_id: string | null;
                    name: string;
                    /** @description email (SMTP), slack (incoming webhook), teams (Workflows webhook, Adaptive Card), webhook (JSON, optional HMAC-SHA256 signature), pagerduty (Events API v2) */
                    type: "email" | "slack" | "teams" | "webhook" | "pagerduty";
                    /** @description The settings of the type (see docs/alerting.md); secret fields (passwords, webhook URLs of Slack and Teams, headers, signing secret, routing key) are write-only */
                    config: {
                        [key: string]: unknown;
                    };
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** @description null: instance-wide (administrators) */
                        project_id: string | null;
                        name: string;
                        /** @description email (SMTP), slack (incoming webhook), teams (Workflows webhook, Adaptive Card), webhook (JSON, optional HMAC-SHA256 signature), pagerduty (Events API v2) */
                        type: "email" | "slack" | "teams" | "webhook" | "pagerduty";
                        /** @description Plain settings; secrets are never returned */
                        config: {
                            [key: string]: unknown;
                        };
                        /** @description Names of the secret settings that hold a value */
                        secrets_set: string[];
                        enabled: boolean;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getNotificationConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** @description null: instance-wide (administrators) */
                        project_id: string | null;
                        name: string;
                        /** @description email (SMTP), slack (incoming webhook), teams (Workflows webhook, Adaptive Card), webhook (JSON, optional HMAC-SHA256 signature), pagerduty (Events API v2) */
                        type: "email" | "slack" | "teams" | "webhook" | "pagerduty";
                        /** @description Plain settings; secrets are never returned */
                        config: {
                            [key: string]: unknown;
                        };
                        /** @description Names of the secret settings that hold a value */
                        secrets_set: string[];
                        enabled: boolean;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteNotificationConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateNotificationConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /** @description Fields to change; a field left out keeps its value (secrets included), null removes it */
                    config?: {
                        [key: string]: unknown;
                    };
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** @description null: instance-wide (administrators) */
                        project_id: string | null;
                        name: string;
                        /** @description email (SMTP), slack (incoming webhook), teams (Workflows webhook, Adaptive Card), webhook (JSON, optional HMAC-SHA256 signature), pagerduty (Events API v2) */
                        type: "email" | "slack" | "teams" | "webhook" | "pagerduty";
                        /** @description Plain settings; secrets are never returned */
                        config: {
                            [key: string]: unknown;
                        };
                        /** @description Names of the secret settings that hold a value */
                        secrets_set: string[];
                        enabled: boolean;
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    testNotificationConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        ok: boolean;
                        /** @description HTTP status, or the SMTP reply code */
                        status: number | null;
                        /** @description The remote answer (truncated), or why the delivery failed */
                        response: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getAlertSummary: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Rule items firing in the projects the caller may read */
                        firing: number;
                        pending: number;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listAlertRules: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            project_id: string;
                            name: string;
                            /** @description run_failed, consecutive_failures, run_duration, freshness, cdc_lag, stream_lag, row_count */
                            kind: "run_failed" | "consecutive_failures" | "run_duration" | "freshness" | "cdc_lag" | "stream_lag" | "row_count";
                            params: {
                                [key: string]: unknown;
                            };
                            scope: {
                                kind: string;
                                id: string;
                            }[];
                            severity: "info" | "warning" | "critical";
                            for: number;
                            keep_firing_for: number;
                            repeat_interval: number | null;
                            channel_ids: string[];
                            muted_until: string | null;
                            enabled: boolean;
                            /** @description The most urgent state of its items (firing > pending > resolved > ok) */
                            state: "ok" | "pending" | "firing" | "resolved";
                            items: {
                                item_kind: string;
                                item_id: string;
                                item_name: string | null;
                                state: "ok" | "pending" | "firing" | "resolved";
                                /** Format: date-time */
                                since: string;
                                deadline_at: string | null;
                                last_notified_at: string | null;
                                value: {
                                    [key: string]: unknown;
                                };
                                link: string | null;
                            }[];
                            created_by: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createAlertRule: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    project_id: string;
                    name: string;
                    /** @description run_failed, consecutive_failures, run_duration, freshness, cdc_lag, stream_lag, row_count */
                    kind: "run_failed" | "consecutive_failures" | "run_duration" | "freshness" | "cdc_lag" | "stream_lag" | "row_count";
                    /** @description The kind's parameters (docs/alerting.md) */
                    params?: {
                        [key: string]: unknown;
                    };
                    /** @description The items the rule watches; empty: every item of the project (every run's subject, every CDC table or every stream) */
                    scope?: {
                        /** @description pipeline, sync (id: "<source connector id>><destination connector id>"), export, file_ingestion, inbox, dw_model (run rules), cdc_table (cdc_lag) or stream (stream_lag) */
                        kind: "pipeline" | "sync" | "export" | "file_ingestion" | "inbox" | "dw_model" | "cdc_table" | "stream";
                        id: string;
                    }[];
                    severity?: "info" | "warning" | "critical";
                    /** @description Seconds the condition must hold before the rule fires (pending until then) */
                    for?: number;
                    /** @description Seconds the rule keeps firing after the condition cleared */
                    keep_firing_for?: number;
                    /** @description Seconds between repeated notifications while firing; null: notify once per state change */
                    repeat_interval?: number | null;
                    channel_ids?: string[];
                    /** @description No notification before then */
                    muted_until?: string | null;
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        /** @description run_failed, consecutive_failures, run_duration, freshness, cdc_lag, stream_lag, row_count */
                        kind: "run_failed" | "consecutive_failures" | "run_duration" | "freshness" | "cdc_lag" | "stream_lag" | "row_count";
                        params: {
                            [key: string]: unknown;
                        };
                        scope: {
                            kind: string;
                            id: string;
                        }[];
                        severity: "info" | "warning" | "critical";
                        for: number;
                        keep_firing_for: number;
                        repeat_interval: number | null;
                        channel_ids: string[];
                        muted_until: string | null;
                        enabled: boolean;
                        /** @description The most urgent state of its items (firing > pending > resolved > ok) */
                        state: "ok" | "pending" | "firing" | "resolved";
                        items: {
                            item_kind: string;
                            item_id: string;
                            item_name: string | null;
                            state: "ok" | "pending" | "firing" | "resolved";
                            /** Format: date-time */
                            since: string;
                            deadline_at: string | null;
                            last_notified_at: string | null;
                            value: {
                                [key: string]: unknown;
                            };
                            link: string | null;
                        }[];
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getAlertRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        /** @description run_failed, consecutive_failures, run_duration, freshness, cdc_lag, stream_lag, row_count */
                        kind: "run_failed" | "consecutive_failures" | "run_duration" | "freshness" | "cdc_lag" | "stream_lag" | "row_count";
                        params: {
                            [key: string]: unknown;
                        };
                        scope: {
                            kind: string;
                            id: string;
                        }[];
                        severity: "info" | "warning" | "critical";
                        for: number;
                        keep_firing_for: number;
                        repeat_interval: number | null;
                        channel_ids: string[];
                        muted_until: string | null;
                        enabled: boolean;
                        /** @description The most urgent state of its items (firing > pending > resolved > ok) */
                        state: "ok" | "pending" | "firing" | "resolved";
                        items: {
                            item_kind: string;
                            item_id: string;
                            item_name: string | null;
                            state: "ok" | "pending" | "firing" | "resolved";
                            /** Format: date-time */
                            since: string;
                            deadline_at: string | null;
                            last_notified_at: string | null;
                            value: {
                                [key: string]: unknown;
                            };
                            link: string | null;
                        }[];
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteAlertRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateAlertRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /** @description The kind's parameters (docs/alerting.md) */
                    params?: {
                        [key: string]: unknown;
                    };
                    /** @description The items the rule watches; empty: every item of the project (every run's subject, every CDC table or every stream) */
                    scope?: {
                        /** @description pipeline, sync (id: "<source connector id>><destination connector id>"), export, file_ingestion, inbox, dw_model (run rules), cdc_table (cdc_lag) or stream (stream_lag) */
                        kind: "pipeline" | "sync" | "export" | "file_ingestion" | "inbox" | "dw_model" | "cdc_table" | "stream";
                        id: string;
                    }[];
                    severity?: "info" | "warning" | "critical";
                    /** @description Seconds the condition must hold before the rule fires (pending until then) */
                    for?: number;
                    /** @description Seconds the rule keeps firing after the condition cleared */
                    keep_firing_for?: number;
                    /** @description Seconds between repeated notifications while firing; null: notify once per state change */
                    repeat_interval?: number | null;
                    channel_ids?: string[];
                    /** @description No notification before then */
                    muted_until?: string | null;
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        project_id: string;
                        name: string;
                        /** @description run_failed, consecutive_failures, run_duration, freshness, cdc_lag, stream_lag, row_count */
                        kind: "run_failed" | "consecutive_failures" | "run_duration" | "freshness" | "cdc_lag" | "stream_lag" | "row_count";
                        params: {
                            [key: string]: unknown;
                        };
                        scope: {
                            kind: string;
                            id: string;
                        }[];
                        severity: "info" | "warning" | "critical";
                        for: number;
                        keep_firing_for: number;
                        repeat_interval: number | null;
                        channel_ids: string[];
                        muted_until: string | null;
                        enabled: boolean;
                        /** @description The most urgent state of its items (firing > pending > resolved > ok) */
                        state: "ok" | "pending" | "firing" | "resolved";
                        items: {
                            item_kind: string;
                            item_id: string;
                            item_name: string | null;
                            state: "ok" | "pending" | "firing" | "resolved";
                            /** Format: date-time */
                            since: string;
                            deadline_at: string | null;
                            last_notified_at: string | null;
                            value: {
                                [key: string]: unknown;
                            };
                            link: string | null;
                        }[];
                        created_by: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listAlertRuleEvents: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Events older than this event id */
                before?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            id: string;
                            /** Format: uuid */
                            rule_id: string;
                            item_kind: string;
                            item_id: string;
                            item_name: string | null;
                            previous_state: "ok" | "pending" | "firing" | "resolved";
                            state: "ok" | "pending" | "firing" | "resolved";
                            /** @description A repeated notification of a rule still firing */
                            repeat: boolean;
                            /** @description The rule was muted: nothing was sent */
                            muted: boolean;
                            value: {
                                [key: string]: unknown;
                            };
                            /** Format: date-time */
                            at: string;
                            notifications: {
                                channel_id: string | null;
                                user_id: string | null;
                                status: "pending" | "sent" | "failed";
                                attempts: number;
                                last_error: string | null;
                                sent_at: string | null;
                            }[];
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listNotificationSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            id: string;
                            /** @description null: every project where the user may read alerts */
                            project_id: string | null;
                            events: ("alert_firing" | "alert_resolved")[];
                            min_severity: "info" | "warning" | "critical";
                            /** @description null: the account's address */
                            email: string | null;
                            channel_ids: string[];
                            quiet_hours: {
                                /** @description HH:MM */
                                start: string;
                                /** @description HH:MM */
                                end: string;
                                /** @description IANA time zone, e.g. Europe/Paris */
                                timezone: string;
                            } | null;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    putNotificationSetting: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    project_id: string | null;
                    events?: ("alert_firing" | "alert_resolved")[];
                    min_severity?: "info" | "warning" | "critical";
                    /** @description Where e-mails go; null: the account's address */
                    email?: string | null;
                    /** @description Notification configs of the project, besides e-mail (a project's setting only) */
                    channel_ids?: string[];
                    quiet_hours?: {
                        /** @description HH:MM */
                        start: string;
                        /** @description HH:MM */
                        end: string;
                        /** @description IANA time zone, e.g. Europe/Paris */
                        timezone: string;
                    } | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** @description null: every project where the user may read alerts */
                        project_id: string | null;
                        events: ("alert_firing" | "alert_resolved")[];
                        min_severity: "info" | "warning" | "critical";
                        /** @description null: the account's address */
                        email: string | null;
                        channel_ids: string[];
                        quiet_hours: {
                            /** @description HH:MM */
                            start: string;
                            /** @description HH:MM */
                            end: string;
                            /** @description IANA time zone, e.g. Europe/Paris */
                            timezone: string;
                        } | null;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getInstanceNotificationSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        defaults: {
                            events: ("alert_firing" | "alert_resolved")[];
                            min_severity: "info" | "warning" | "critical";
                        };
                        /** @description The server users' own notifications are mailed through */
                        smtp: {
                            host: string;
                            port: number;
                            tls: string;
                            user?: string;
                            from: string;
                        } | null;
                        smtp_secrets_set: string[];
                        updated_at: string | null;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    putInstanceNotificationSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    defaults?: {
                        events: ("alert_firing" | "alert_resolved")[];
                        min_severity: "info" | "warning" | "critical";
                    };
                    /** @description host, port, tls (starttls, tls, none), user, password (write-only), from; null: none */
                    smtp?: {
                        [key: string]: unknown;
                    } | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        defaults: {
                            events: ("alert_firing" | "alert_resolved")[];
                            min_severity: "info" | "warning" | "critical";
                        };
                        /** @description The server users' own notifications are mailed through */
                        smtp: {
                            host: string;
                            port: number;
                            tls: string;
                            user?: string;
                            from: string;
                        } | null;
                        smtp_secrets_set: string[];
                        updated_at: string | null;
                    };
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteNotificationSetting: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
}
