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
        /** Datasets found by discovery (catalog:read), optionally for one connector or project */
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
        /** One dataset with its columns (catalog:read) */
        get: operations["getCatalogDataset"];
        put?: never;
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
    "/api/v1/streams/{id}/runs/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Live run status of a stream (SSE) */
        get: operations["streamStreamRuns"];
        put?: never;
        post?: never;
        delete?: never;
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
    listExecutions: {
        parameters: {
            query?: {
                status?: "queued" | "running" | "succeeded" | "failed" | "cancelled";
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
                            status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
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
                        status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
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
                    status?: "queued" | "running" | "succeeded" | "failed" | "cancelled";
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
                        status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
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
                        status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
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
                        status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
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
                        status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
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
    streamStreamRuns: {
        parameters: {
            query?: {
                /** @description Access token (SSE clients cannot send headers) */
                token?: string;
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
}
