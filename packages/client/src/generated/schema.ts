/**
 * GENERATED FILE: do not edit. Run `npm run generate -w @looplane/client` after changing the REST API.
 *
 * The types of the Looplane REST API (`/api/v1`), written by openapi-typescript from the OpenAPI
 * document that `buildOpenApiDocument()` of @looplane/api builds from the route table's zod
 * schemas (committed next to this package as openapi.json). The drift test fails when this file
 * or openapi.json no longer matches what the API documents.
 */
export interface paths {
    "/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who the token is
         * @description The token, the person it acts for, and its team with the role it has there.
         *
         *     Requires the **viewer** role (tRPC `me`).
         */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List runs
         * @description The team’s runs, newest first, one page at a time (`nextCursor`, also a `Link: rel="next"`).
         *
         *     Requires the **viewer** role (tRPC `runs.list`).
         */
        get: operations["listRuns"];
        put?: never;
        /**
         * Start a run
         * @description Starts a run of an agent (by id or name) or of a swarm graph (by id or name) with a goal (free text or `/command args`) and an optional budget. `workspace` says where its files come from: a repository (`git`), an uploaded archive (`archive`, see `POST /uploads`) or another session’s files (`session`); without it, the agent’s default (else an empty workspace). A repository the team policy’s `workspace.sources` does not allow is 403; an unknown upload or session is 404; a `secretRef` naming no team secret is 412; a secret of the wrong kind for the URL is 400. Send an `Idempotency-Key` to make retries safe: the same key and body within 24 hours return the first run.
         *
         *     Requires the **operator** role (tRPC `runs.create`).
         */
        post: operations["createRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/runs/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a run
         * @description One run: status, budget and spend, its sessions and the people involved.
         *
         *     Requires the **viewer** role (tRPC `runs.get`).
         */
        get: operations["getRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/runs/{runId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a run
         * @description Asks the run to stop; the worker holding it stops at once and records the cancellation. Asking twice is harmless.
         *
         *     Requires the **operator** role (tRPC `runs.cancel`).
         */
        post: operations["cancelRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/runs/{runId}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a message to a run
         * @description A message to the run’s main session, delivered per the agent’s busy policy. A succeeded or failed run continues with it: it is queued again on its main session, takes the message as its next user turn and spends from the same budget. A cancelled run takes no messages (412): fork or resume its session instead.
         *
         *     Requires the **operator** role (tRPC `runs.sendMessage`).
         */
        post: operations["sendRunMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/runs/{runId}/budget": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Raise a run’s budget
         * @description Adds to the run ledger’s limits (an unlimited limit stays unlimited); a run waiting on its budget goes on.
         *
         *     Requires the **approver** role (tRPC `runs.raiseBudget`).
         */
        post: operations["raiseRunBudget"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/runs/{runId}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a run’s events
         * @description The run’s events after an event number, oldest first. `stream` (and `Link: rel="stream"`) is the live SSE stream from after this page; while `hasMore` is true, `Link: rel="next"` is the next page.
         *
         *     Requires the **viewer** role (tRPC `runs.events`).
         */
        get: operations["listRunEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/approvals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List approvals
         * @description Tool calls the team’s policy holds for a person, newest first, pending ones before the rest; `canDecide` says whether this token may decide each.
         *
         *     Requires the **viewer** role (tRPC `approvals.list`).
         */
        get: operations["listApprovals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/approvals/{approvalId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an approval
         * @description The exact call, who asked for it and why, and whether this token may decide it.
         *
         *     Requires the **viewer** role (tRPC `approvals.get`).
         */
        get: operations["getApproval"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/approvals/{approvalId}/decision": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve or reject
         * @description Decides a pending approval; the run goes on. An approval may need a higher role, and four-eyes keeps whoever gave the instruction the call follows from out of it.
         *
         *     Requires the **approver** role (tRPC `approvals.decide`).
         */
        post: operations["decideApproval"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List agents
         * @description The team’s agent templates: what a run is started from (endpoint, prompt, tools, sandbox, slash commands).
         *
         *     Requires the **viewer** role (tRPC `agents.list`).
         */
        get: operations["listAgents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{agentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an agent
         * @description Get an agent
         *
         *     Requires the **viewer** role (tRPC `agents.get`).
         */
        get: operations["getAgent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change an agent
         * @description Changes the given fields (a new version of the template); with `expectedVersion`, a concurrent edit makes it fail with 409. `workspace` is checked as a run’s would be (the policy’s `workspace.sources`, the secret’s kind, the upload or session), without using an upload up.
         *
         *     Requires the **operator** role (tRPC `agents.update`).
         */
        patch: operations["updateAgent"];
        trace?: never;
    };
    "/graphs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List graphs
         * @description The team’s swarm graphs, each at its current version.
         *
         *     Requires the **viewer** role (tRPC `graphs.list`).
         */
        get: operations["listGraphs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/graphs/{graphId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a graph
         * @description A graph’s nodes and governed edges at a version (default: its current one).
         *
         *     Requires the **viewer** role (tRPC `graphs.get`).
         */
        get: operations["getGraph"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/graphs/{graphId}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a graph
         * @description Starts a run of the graph at its current version; its root node gets the goal. Honours `Idempotency-Key` like `POST /runs`.
         *
         *     Requires the **operator** role (tRPC `runs.create`).
         */
        post: operations["runGraph"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions/{sessionId}/fork": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Fork a session
         * @description A new branch from an event of the session (its conversation and workspace as they were then), optionally with a message and another endpoint or prompt.
         *
         *     Requires the **operator** role (tRPC `sessions.fork`).
         */
        post: operations["forkSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions/{sessionId}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replay a session on another endpoint or prompt
         * @description A replay branch in the same run: from an event of the session, the new model runs with the recorded input; while it asks for the same tool calls as the recording, the recorded results are served from the log (nothing runs again). At the first divergence, stop ends the branch with a report (a replay.diverged event), live goes on for real.
         *
         *     Requires the **operator** role (tRPC `sessions.replay`).
         */
        post: operations["replaySession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions/{sessionId}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a session
         * @description Continues a finished session with a new instruction.
         *
         *     Requires the **operator** role (tRPC `sessions.resume`).
         */
        post: operations["resumeSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions/{sessionId}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restore a session’s files to an earlier event
         * @description Puts the session’s workspace (or only the given paths) back as it was at an event of its log, as a new commit recorded by a workspace.restored event. Recorded and audited now; the worker applies it at the session’s next step boundary. A finished session is reopened for it and finishes again with the same outcome, without a model call.
         *
         *     Requires the **operator** role (tRPC `sessions.restore`).
         */
        post: operations["restoreSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions/{sessionId}/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Browse a session’s files
         * @description A directory listing, or one file’s content (UTF-8 text or base64, cut at 1 MiB), of the session’s workspace as it was at an event. The whole workspace as a tarball is `/api/sessions/{sessionId}/workspace.tar.gz`.
         *
         *     Requires the **viewer** role (tRPC `sessions.files`).
         */
        get: operations["getSessionFiles"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions/{sessionId}/patch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download what a session changed as a patch series
         * @description What the session changed, as a `git format-patch` series (one message per call that changed files, binary-safe), from the files its run was seeded with (a repository, an upload or another session’s files) or from its files at event `base`, to its latest files. `git am` on the repository the run started from reproduces them. Empty when nothing changed; 412 when the run started empty and no `base` is given.
         *
         *     Requires the **viewer** role (tRPC `sessions.patch`).
         */
        get: operations["getSessionPatch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/audit/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export the audit log
         * @description The team’s whole hash-chained audit log as JSON Lines, to keep or to check offline with `looplane audit verify`.
         *
         *     Requires the **admin** role (tRPC `audit.export`).
         */
        get: operations["exportAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API tokens
         * @description Admins see every token of the team; others see the ones they made, of their own role or below.
         *
         *     Requires the **viewer** role (tRPC `tokens.list`).
         */
        get: operations["listTokens"];
        put?: never;
        /**
         * Create an API token
         * @description A team token with at most the caller’s role. The secret is in the response only. A token made with a token expires no later than it and is revoked with it.
         *
         *     Requires the **operator** role (tRPC `tokens.create`).
         */
        post: operations["createToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tokens/{tokenId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API token
         * @description The next request with it (and with every token made with it) gets 401.
         *
         *     Requires the **operator** role (tRPC `tokens.revoke`).
         */
        delete: operations["revokeToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp-servers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List MCP servers
         * @description MCP servers the team’s agents may use; their tools appear in runs as `mcp:<server>:<tool>`.
         *
         *     Requires the **viewer** role (tRPC `mcp.list`).
         */
        get: operations["listMcpServers"];
        put?: never;
        /**
         * Add an MCP server
         * @description A stdio program (run inside each run’s sandbox) or a streamable HTTP endpoint (reached through the egress proxy); a worker then lists its tools.
         *
         *     Requires the **admin** role (tRPC `mcp.add`).
         */
        post: operations["addMcpServer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp-servers/{serverId}/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * List an MCP server’s tools again
         * @description List an MCP server’s tools again
         *
         *     Requires the **admin** role (tRPC `mcp.refresh`).
         */
        post: operations["refreshMcpServer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp-servers/{serverId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove an MCP server
         * @description New runs no longer see its tools; calls of runs that loaded them fail.
         *
         *     Requires the **admin** role (tRPC `mcp.remove`).
         */
        delete: operations["removeMcpServer"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload an archive to seed runs
         * @description Stores a .tar, .tar.gz/.tgz or .zip archive whose files a run’s workspace can start from (`runs.create` with `workspace: { archive: { uploadId } }`). It is read whole first and refused (400, naming the first bad entry) for absolute or `..` paths, links that leave it, devices, FIFOs and sparse files, duplicate paths, more than 100,000 entries, or unpacking past ten times the upload limit (at most 1 GiB). It expires after 24 hours unless a run uses it.
         *
         *     Requires the **operator** role (tRPC `uploads.create`).
         */
        post: operations["createUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/uploads/{uploadId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an upload
         * @description An uploaded archive’s metadata (not its bytes): what it holds, its SHA-256, and until when it waits for a run.
         *
         *     Requires the **viewer** role (tRPC `uploads.get`).
         */
        get: operations["getUpload"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/skills": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List skills
         * @description The team’s skill library: instructions (and small files) an agent loads on demand with `load_skill`.
         *
         *     Requires the **viewer** role (tRPC `skills.list`).
         */
        get: operations["listSkills"];
        put?: never;
        /**
         * Create a skill
         * @description A name (lowercase letters, digits, - and _), a one-line description (what the model sees before loading it), Markdown instructions (at most 64 KB) and up to 20 text files with relative paths. An agent may use it once its `skills` list names it.
         *
         *     Requires the **operator** role (tRPC `skills.create`).
         */
        post: operations["createSkill"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/skills/{skillId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a skill
         * @description Get a skill
         *
         *     Requires the **viewer** role (tRPC `skills.get`).
         */
        get: operations["getSkill"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a skill
         * @description Changes the given fields (a new version); with `expectedVersion`, a concurrent edit makes it fail with 409. Runs that loaded it keep the text they loaded.
         *
         *     Requires the **operator** role (tRPC `skills.update`).
         */
        patch: operations["updateSkill"];
        trace?: never;
    };
    "/skills/{skillId}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archive or restore a skill
         * @description An archived skill is offered to no new run (its name stays taken); `archived: false` brings it back.
         *
         *     Requires the **operator** role (tRPC `skills.archive`).
         */
        post: operations["archiveSkill"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/schedules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List schedules
         * @description The team’s schedules, each with its next fire time (null while paused).
         *
         *     Requires the **viewer** role (tRPC `schedules.list`).
         */
        get: operations["listSchedules"];
        put?: never;
        /**
         * Create a schedule
         * @description Runs an agent (`agentId`) or a swarm graph (`graphId`) on a `cron` (5 fields, or 6 with seconds first, read in the IANA `timezone`) or `everySeconds`, with a goal that may use `{{scheduledAt}}`, and the `budget` and `workspace` of `POST /runs`. The workers fire each tick exactly once. `overlap` says what a tick does while the previous run is unfinished (skip, queue, cancel_previous); `catchUp` what ticks missed while no worker ran do (none, or the latest one); `pauseAfterFailures` failed runs in a row pause it. An unknown agent or graph is 404; a name the team already uses is 409.
         *
         *     Requires the **operator** role (tRPC `schedules.create`).
         */
        post: operations["createSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/schedules/{scheduleId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a schedule and its ticks
         * @description The schedule and its latest ticks, newest first: each run started (with its status now), tick skipped or tick failed, and why.
         *
         *     Requires the **viewer** role (tRPC `schedules.get`).
         */
        get: operations["getSchedule"];
        put?: never;
        post?: never;
        /**
         * Delete a schedule
         * @description The schedule and its ticks go; its runs stay, no longer linked to it.
         *
         *     Requires the **operator** role (tRPC `schedules.delete`).
         */
        delete: operations["deleteSchedule"];
        options?: never;
        head?: never;
        /**
         * Change a schedule
         * @description Changes the given fields; `null` clears `cron`, `everySeconds`, `agentId`, `graphId` or `workspace` to switch to the other. A new timing starts from the next tick after now. Pausing and resuming have routes of their own.
         *
         *     Requires the **operator** role (tRPC `schedules.update`).
         */
        patch: operations["updateSchedule"];
        trace?: never;
    };
    "/schedules/{scheduleId}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a schedule
         * @description Waits for a tick in progress, then stops: once it answers, no further run of the schedule starts. Pausing a paused schedule changes nothing.
         *
         *     Requires the **operator** role (tRPC `schedules.pause`).
         */
        post: operations["pauseSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/schedules/{scheduleId}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a schedule
         * @description Fires again from the next tick after now (ticks missed while paused are not made up) and clears the failure streak.
         *
         *     Requires the **operator** role (tRPC `schedules.resume`).
         */
        post: operations["resumeSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/schedules/{scheduleId}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a schedule now
         * @description Starts the schedule’s run now, as you (paused or not, whatever its overlap); its next tick stays as it was. Refused as `POST /runs` would refuse it: an archived agent, the policy, the team’s limits (429 with `Retry-After`).
         *
         *     Requires the **operator** role (tRPC `schedules.runNow`).
         */
        post: operations["runScheduleNow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/triggers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List triggers
         * @description The team’s inbound triggers: public URLs (`POST /api/hooks/{triggerId}`) that start a run or message one for a signed delivery.
         *
         *     Requires the **viewer** role (tRPC `triggers.list`).
         */
        get: operations["listTriggers"];
        put?: never;
        /**
         * Create a trigger
         * @description A name, a target (`start_run` of an agent or graph with a goal template, or `message_run` to a run of the team) and how deliveries authenticate (`standard_webhooks`, the default, or `bearer`). Templates may use `{{payload.a.b}}` paths only. The secret is in this answer only. Deliveries start runs in the creating admin’s name.
         *
         *     Requires the **admin** role (tRPC `triggers.create`).
         */
        post: operations["createTrigger"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/triggers/{triggerId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a trigger
         * @description Get a trigger
         *
         *     Requires the **viewer** role (tRPC `triggers.get`).
         */
        get: operations["getTrigger"];
        put?: never;
        post?: never;
        /**
         * Delete a trigger
         * @description Its URL answers 404 from now on; its deliveries are deleted with it, the runs it started stay.
         *
         *     Requires the **admin** role (tRPC `triggers.delete`).
         */
        delete: operations["deleteTrigger"];
        options?: never;
        head?: never;
        /**
         * Change a trigger
         * @description Changes the given fields: name, enabled, rate limit, and the target’s template (`goalTemplate` or `messageTemplate`), budget and workspace (null clears it). The target’s kind, agent, graph and run stay.
         *
         *     Requires the **admin** role (tRPC `triggers.update`).
         */
        patch: operations["updateTrigger"];
        trace?: never;
    };
    "/triggers/{triggerId}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace a trigger’s secret
         * @description The old secret stops working at once; the new one is in this answer only.
         *
         *     Requires the **admin** role (tRPC `triggers.rotateSecret`).
         */
        post: operations["rotateTriggerSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/triggers/{triggerId}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a trigger’s deliveries
         * @description Every delivery, accepted or refused, newest first: when, the status answered, why, and the run (`nextCursor`, also a `Link: rel="next"`).
         *
         *     Requires the **viewer** role (tRPC `triggers.deliveries`).
         */
        get: operations["listTriggerDeliveries"];
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
        CreateRunRequest: {
            agentId?: string;
            agentName?: string;
            graphId?: string;
            graphName?: string;
            goal: string;
            budget?: {
                tokens?: number;
                costMicros?: number;
                toolCalls?: number;
                wallMs?: number;
                /**
                 * @default wait
                 * @enum {string}
                 */
                onExceed?: "wait" | "fail";
            };
            /** @description Where the run’s files come from (default: the agent’s own default, else an empty workspace) */
            workspace?: components["schemas"]["WorkspaceSource"];
        };
        /**
         * @description Where the run’s files come from; exactly one of `git`, `archive` or `session`.
         * @example {
         *       "git": {
         *         "url": "https://github.com/acme/api.git",
         *         "ref": "main",
         *         "secretRef": "GITHUB_TOKEN"
         *       }
         *     }
         * @example {
         *       "archive": {
         *         "uploadId": "cmexampleupload000000000"
         *       }
         *     }
         * @example {
         *       "session": {
         *         "sessionId": "cmexamplesession00000000",
         *         "atEvent": 12
         *       }
         *     }
         */
        WorkspaceSource: components["schemas"]["WorkspaceFromRepository"] | components["schemas"]["WorkspaceFromUpload"] | components["schemas"]["WorkspaceFromSession"];
        /** @description A repository the worker clones before the first model call: `url` (https, http, ssh, file or git@host:path; never a password or token), `ref` (a branch, tag or commit; default the remote’s HEAD), `secretRef` (a team secret: a token for https, an ssh_key for ssh), `depth` (history to fetch, default 1). The team policy’s `workspace.sources` must allow the URL. */
        WorkspaceFromRepository: {
            git: {
                url: string;
                ref?: string;
                secretRef?: string;
                depth?: number;
            };
        };
        /** @description An archive uploaded with `POST /uploads` (its `id`), unpacked as the files. */
        WorkspaceFromUpload: {
            archive: {
                uploadId: string;
            };
        };
        /** @description Another session’s files: as they were at its event `atEvent` (default: its latest). */
        WorkspaceFromSession: {
            session: {
                sessionId: string;
                atEvent?: number;
            };
        };
        SendMessageRequest: {
            text: string;
        };
        RaiseBudgetRequest: {
            tokens?: number;
            costMicros?: number;
            toolCalls?: number;
        };
        DecideApprovalRequest: {
            /** @enum {string} */
            decision: "approve" | "reject";
            /** @description Why; a rejection’s comment is what the model is told */
            comment?: string;
            /** @description Arguments to run instead of the model’s (approve only) */
            editedArgs?: {
                [key: string]: components["schemas"]["JsonValue"];
            };
        };
        UpdateAgentRequest: {
            expectedVersion?: number;
            name?: string;
            description?: string;
            endpointId?: string;
            systemPrompt?: string;
            tools?: {
                name: string;
                description: string;
                /**
                 * @default {
                 *       "type": "object",
                 *       "properties": {}
                 *     }
                 */
                parameters?: {
                    [key: string]: components["schemas"]["JsonValue"];
                };
                /** @default false */
                idempotent?: boolean;
            }[];
            sandbox?: {
                /** @enum {string} */
                driver?: "bwrap" | "podman" | "gvisor" | "microvm" | "dangerous-none";
                /** @enum {string} */
                podmanRuntime?: "runc" | "crun" | "runsc";
                /** @enum {string} */
                whenIsolationUnavailable?: "refuse-call" | "fail-run" | "wait";
                /** @enum {string} */
                network?: "none" | "egress";
                egressHosts?: string[];
                timeoutMs?: number;
                memoryMb?: number;
                cpus?: number;
                pids?: number;
            };
            slashCommands?: {
                name: string;
                /** @default  */
                description?: string;
                goalTemplate: string;
                /** @default [] */
                args?: {
                    name: string;
                    /** @default false */
                    required?: boolean;
                    /** @default  */
                    description?: string;
                }[];
                skill?: string;
            }[];
            /** @enum {string} */
            busyPolicy?: "reject" | "enqueue" | "interrupt";
            maxConcurrentRuns?: number | null;
            /** @description The files every run of the agent starts from unless the run names its own; null removes the default */
            workspace?: components["schemas"]["WorkspaceSource"] | null;
            skills?: string[];
            persistent?: boolean;
        };
        GraphRunRequest: {
            goal: string;
            budget?: {
                tokens?: number;
                costMicros?: number;
                toolCalls?: number;
                wallMs?: number;
                /**
                 * @default wait
                 * @enum {string}
                 */
                onExceed?: "wait" | "fail";
            };
            /** @description Where the root session’s files come from (default: the root node’s, else its agent’s) */
            workspace?: components["schemas"]["WorkspaceSource"];
        };
        ForkSessionRequest: {
            /** @description The event’s seq in this session’s log (as the run page shows it, `#seq`), not the run-wide eventNo */
            atEvent: number;
            /** @description A user message the branch starts with */
            message?: string;
            agentOverrides?: {
                endpointId?: string;
                systemPrompt?: string;
            };
        };
        ReplaySessionRequest: {
            /** @description The event’s seq to replay from (default: the session’s start, before its first model call); at a turn’s start or end */
            atEvent?: number;
            /** @description A model endpoint of the team to replay on (default: the session’s own) */
            endpointId?: string;
            /** @description Replaces the system prompt for the replay */
            systemPrompt?: string;
            /**
             * @description At the first divergence from the recording: stop (end with the report) or live (go on for real, under the policy and budgets)
             * @enum {string}
             */
            mode: "stop" | "live";
        };
        ResumeSessionRequest: {
            message: string;
        };
        RestoreSessionRequest: {
            /** @description The event’s seq in this session’s log (as the run page shows it, `#seq`) whose files are put back, not the run-wide eventNo */
            atEvent: number;
            /** @description Files or directories to restore, relative to the workspace root (at most 1000), each as it was at the event; one that did not exist then is removed. Leave out to restore the whole workspace */
            paths?: string[];
        };
        CreateTokenRequest: {
            name: string;
            /** @description At most the caller’s own role */
            role: components["schemas"]["Role"];
            /** @description Omitted: never (a token made with a token expires no later than it) */
            expiresInDays?: number;
        };
        /** @enum {string} */
        Role: "viewer" | "operator" | "approver" | "admin";
        AddMcpServerRequest: {
            name: string;
            /** @enum {string} */
            transport: "stdio" | "http";
            command?: string;
            args?: string[];
            /** Format: uri */
            url?: string;
        };
        CreateSkillRequest: {
            name: string;
            description: string;
            instructions: string;
            /** @default [] */
            files?: {
                path: string;
                content: string;
            }[];
        };
        UpdateSkillRequest: {
            expectedVersion?: number;
            name?: string;
            description?: string;
            instructions?: string;
            files?: {
                path: string;
                content: string;
            }[];
        };
        ArchiveSkillRequest: {
            /** @default true */
            archived?: boolean;
        };
        CreateScheduleRequest: {
            name: string;
            agentId?: string;
            graphId?: string;
            cron?: string;
            everySeconds?: number;
            /** @default UTC */
            timezone?: string;
            goal: string;
            budget?: {
                tokens?: number;
                costMicros?: number;
                toolCalls?: number;
                wallMs?: number;
                /**
                 * @default wait
                 * @enum {string}
                 */
                onExceed?: "wait" | "fail";
            };
            workspace?: {
                git: {
                    url: string;
                    ref?: string;
                    secretRef?: string;
                    depth?: number;
                };
            } | {
                archive: {
                    uploadId: string;
                };
            } | {
                session: {
                    sessionId: string;
                    atEvent?: number;
                };
            };
            /**
             * @default skip
             * @enum {string}
             */
            overlap?: "skip" | "queue" | "cancel_previous";
            /**
             * @default latest
             * @enum {string}
             */
            catchUp?: "none" | "latest";
            /** @default true */
            enabled?: boolean;
            /** @default 5 */
            pauseAfterFailures?: number;
        };
        UpdateScheduleRequest: {
            name?: string;
            agentId?: string | null;
            graphId?: string | null;
            cron?: string | null;
            everySeconds?: number | null;
            timezone?: string;
            goal?: string;
            budget?: {
                tokens?: number;
                costMicros?: number;
                toolCalls?: number;
                wallMs?: number;
                /**
                 * @default wait
                 * @enum {string}
                 */
                onExceed?: "wait" | "fail";
            };
            workspace?: ({
                git: {
                    url: string;
                    ref?: string;
                    secretRef?: string;
                    depth?: number;
                };
            } | {
                archive: {
                    uploadId: string;
                };
            } | {
                session: {
                    sessionId: string;
                    atEvent?: number;
                };
            }) | null;
            /** @enum {string} */
            overlap?: "skip" | "queue" | "cancel_previous";
            /** @enum {string} */
            catchUp?: "none" | "latest";
            pauseAfterFailures?: number;
        };
        CreateTriggerRequest: {
            name: string;
            target: {
                /** @constant */
                type: "start_run";
                agentId?: string;
                graphId?: string;
                goalTemplate: string;
                budget?: {
                    tokens?: number;
                    costMicros?: number;
                    toolCalls?: number;
                    wallMs?: number;
                    /**
                     * @default wait
                     * @enum {string}
                     */
                    onExceed?: "wait" | "fail";
                };
                workspace?: {
                    git: {
                        url: string;
                        ref?: string;
                        secretRef?: string;
                        depth?: number;
                    };
                } | {
                    archive: {
                        uploadId: string;
                    };
                } | {
                    session: {
                        sessionId: string;
                        atEvent?: number;
                    };
                };
            } | {
                /** @constant */
                type: "message_run";
                runId: string;
                messageTemplate?: string;
            };
            /**
             * @default standard_webhooks
             * @enum {string}
             */
            auth?: "standard_webhooks" | "bearer";
            /** @default 600 */
            rateLimitPerMinute?: number;
            /** @default true */
            enabled?: boolean;
        };
        UpdateTriggerRequest: {
            name?: string;
            enabled?: boolean;
            goalTemplate?: string;
            messageTemplate?: string;
            budget?: {
                tokens?: number;
                costMicros?: number;
                toolCalls?: number;
                wallMs?: number;
                /**
                 * @default wait
                 * @enum {string}
                 */
                onExceed?: "wait" | "fail";
            };
            workspace?: ({
                git: {
                    url: string;
                    ref?: string;
                    secretRef?: string;
                    depth?: number;
                };
            } | {
                archive: {
                    uploadId: string;
                };
            } | {
                session: {
                    sessionId: string;
                    atEvent?: number;
                };
            }) | null;
            rateLimitPerMinute?: number;
        };
        Me: {
            /** @description The person the token acts for (its creator) */
            user: components["schemas"]["UserRef"];
            token: {
                id: string;
                /** @description The role the token was made with */
                role: components["schemas"]["Role"];
            };
            team: {
                id: string;
                slug: string;
                name: string;
                /** @description What the token may do: its role, capped by its creator’s role in the team */
                role: components["schemas"]["Role"];
            };
        };
        UserRef: {
            id: string;
            email: string;
            name: string | null;
        };
        Problem: {
            type: string;
            title: string;
            status: number;
            detail: string;
            code: string;
            errors?: components["schemas"]["ProblemIssue"][];
        };
        ProblemIssue: {
            /** @enum {string} */
            in: "path" | "query" | "body" | "header";
            path: string;
            message: string;
        };
        RunCreated: {
            runId: string;
        };
        RunPage: {
            runs: components["schemas"]["RunSummary"][];
            nextCursor: string | null;
        };
        RunSummary: {
            id: string;
            /** @description The first 300 characters */
            goal: string;
            status: components["schemas"]["RunStatus"];
            waitReason: components["schemas"]["WaitReason"] | null;
            agent: components["schemas"]["AgentRef"] | null;
            createdBy: {
                id: string;
                email: string;
            } | null;
            viaToken: boolean;
            /** @description A BigInt counter, as a JSON number (always below 2^53) */
            spentTokens: number;
            /** @description A BigInt counter, as a JSON number (always below 2^53) */
            spentCostMicros: number;
            toolCalls: number;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
            startedAt: components["schemas"]["Timestamp"] | null;
            finishedAt: components["schemas"]["Timestamp"] | null;
        };
        /** @enum {string} */
        RunStatus: "queued" | "running" | "waiting" | "paused" | "succeeded" | "failed" | "cancelled";
        /** @enum {string} */
        WaitReason: "approval" | "child" | "budget" | "message" | "isolation";
        AgentRef: {
            id: string;
            name: string;
        };
        /**
         * Format: date-time
         * @description ISO-8601 date-time in UTC, e.g. 2026-12-02T07:00:00.000Z
         */
        Timestamp: string;
        Run: {
            id: string;
            goal: string;
            status: components["schemas"]["RunStatus"];
            waitReason: components["schemas"]["WaitReason"] | null;
            agent: components["schemas"]["AgentRef"] | null;
            graphId: string | null;
            createdBy: components["schemas"]["UserRef"] | null;
            createdByTokenId: string | null;
            budget: components["schemas"]["RunBudget"];
            ledger: components["schemas"]["RunLedger"] | null;
            /** @description A BigInt counter, as a JSON number (always below 2^53) */
            spentTokens: number;
            /** @description A BigInt counter, as a JSON number (always below 2^53) */
            spentCostMicros: number;
            toolCalls: number;
            /** @description A BigInt counter, as a JSON number (always below 2^53) */
            lastEventNo: number;
            /** @description What a message does while the run works: reject, enqueue or interrupt (the agent’s, when the run started) */
            busyPolicy: string;
            cancelRequestedAt: components["schemas"]["Timestamp"] | null;
            cancelledBy: components["schemas"]["UserRef"] | null;
            rootSessionId: string | null;
            mainSessionId: string | null;
            result: string | null;
            error: string | null;
            pendingMessages: number;
            /** @description The first 200 sessions, oldest first */
            sessions: {
                id: string;
                parentId: string | null;
                status: components["schemas"]["SessionStatus"];
                waitReason: components["schemas"]["WaitReason"] | null;
                title: string;
                /** @description A BigInt counter, as a JSON number (always below 2^53) */
                costMicros: number;
                lastSeq: number;
                createdAt: components["schemas"]["Timestamp"];
                finishedAt: components["schemas"]["Timestamp"] | null;
            }[];
            startedAt: components["schemas"]["Timestamp"] | null;
            finishedAt: components["schemas"]["Timestamp"] | null;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
        };
        RunBudget: {
            tokens?: number;
            costMicros?: number;
            toolCalls?: number;
            wallMs?: number;
            /** @enum {string} */
            onExceed: "wait" | "fail";
        };
        RunLedger: {
            limitTokens: number | null;
            limitCostMicros: number | null;
            limitCalls: number | null;
            /** @description A BigInt counter, as a JSON number (always below 2^53) */
            reservedTokens: number;
            /** @description A BigInt counter, as a JSON number (always below 2^53) */
            reservedCostMicros: number;
            /** @description A BigInt counter, as a JSON number (always below 2^53) */
            spentTokens: number;
            /** @description A BigInt counter, as a JSON number (always below 2^53) */
            spentCostMicros: number;
            calls: number;
        };
        /** @enum {string} */
        SessionStatus: "idle" | "running" | "waiting" | "succeeded" | "failed" | "cancelled";
        RunCancelRequested: {
            runId: string;
            cancelRequestedAt: components["schemas"]["Timestamp"];
            alreadyRequested: boolean;
        };
        MessageSent: {
            messageId: string;
            createdAt: components["schemas"]["Timestamp"];
            /**
             * @description wake: the session was woken with it (a succeeded or failed run continues: it is queued again and runs with the message); inbox: a running session reads it at its next step. A cancelled run refuses messages (412).
             * @enum {string}
             */
            delivered: "wake" | "inbox";
        };
        BudgetRaised: {
            runId: string;
            limits: {
                tokens: number | null;
                costMicros: number | null;
                toolCalls: number | null;
            };
            resumed: boolean;
        };
        RunEventPage: {
            events: components["schemas"]["RunEvent"][];
            /** @description A BigInt counter, as a JSON number (always below 2^53) */
            nextAfter: number;
            /** @description A BigInt counter, as a JSON number (always below 2^53) */
            lastEventNo: number;
            hasMore: boolean;
            /** @description The live SSE stream from after this page (a URL path on this server; Bearer token) */
            stream: string;
        };
        RunEvent: {
            /** @description Per-run, from 1: the SSE id and the `after` of the next page */
            eventNo: number;
            sessionId: string;
            seq: number;
            type: string;
            version: number;
            /** @description The event body; its shape depends on `type` */
            payload: unknown;
            createdAt: components["schemas"]["Timestamp"];
        };
        ApprovalPage: {
            items: components["schemas"]["Approval"][];
            nextCursor: string | null;
        };
        Approval: {
            id: string;
            status: components["schemas"]["ApprovalStatus"];
            /** @enum {string} */
            kind: "tool" | "budget" | "edge" | "effect" | "breaker";
            runId: string;
            sessionId: string;
            requestSeq: number;
            toolCallId: string | null;
            tool: string | null;
            args: {
                [key: string]: unknown;
            };
            editedArgs: {
                [key: string]: unknown;
            } | null;
            /** @description kind effect: what the call changed (held until decided) */
            held: {
                commit: string;
                baseCommit: string;
                effect: {
                    changes: {
                        path: string;
                        /** @enum {string} */
                        kind: "added" | "modified" | "truncated" | "deleted" | "moved" | "type_changed";
                        from?: string;
                        oldBytes: number | null;
                        newBytes: number | null;
                        lostBytes?: number;
                    }[];
                    /** @default false */
                    truncatedList: boolean;
                    counts: {
                        added: number;
                        modified: number;
                        truncated: number;
                        deleted: number;
                        moved: number;
                        /** @default 0 */
                        type_changed: number;
                    };
                    lostBytes?: number;
                    refused?: {
                        path: string;
                        reason: string;
                    }[];
                };
            } | null;
            risk: string;
            policyRuleId: string | null;
            policyVersionId: string | null;
            graphEdgeId: string | null;
            requiredRole: components["schemas"]["Role"];
            fourEyes: boolean;
            requestedById: string | null;
            instructedByIds: string[];
            decidedById: string | null;
            decidedAt: components["schemas"]["Timestamp"] | null;
            comment: string | null;
            expiresAt: components["schemas"]["Timestamp"] | null;
            expiryOutcome: string;
            escalateAt: components["schemas"]["Timestamp"] | null;
            escalateToRole: components["schemas"]["Role"] | null;
            createdAt: components["schemas"]["Timestamp"];
            reason: string | null;
            /** @description kind breaker: the breaker that paused the session, what it measured and its limit */
            breaker: {
                /** @enum {string} */
                name: "repeatCall" | "noProgress" | "spendRate" | "fanOut";
                /** @enum {string} */
                scope: "session" | "graphRun";
                observed: number;
                limit: number;
                unit: string;
                window: string;
            } | null;
            run: {
                id: string;
                goal: string;
                status: components["schemas"]["RunStatus"];
            };
            agent: {
                id: string;
                name: string;
            } | null;
            requestedBy: components["schemas"]["UserRef"] | null;
            decidedBy: components["schemas"]["UserRef"] | null;
            /** @description Whether this token may decide it now */
            canDecide: boolean;
            /** @description Why it may not, when it may not */
            blocker: string | null;
        };
        /** @enum {string} */
        ApprovalStatus: "pending" | "approved" | "rejected" | "expired" | "cancelled";
        ApprovalDecided: {
            approvalId: string;
            /** @enum {string} */
            status: "approved" | "rejected";
            decidedAt: components["schemas"]["Timestamp"];
            runId: string;
        };
        /** @description The team’s agent templates (archived ones left out), by name */
        AgentList: components["schemas"]["Agent"][];
        Agent: {
            id: string;
            name: string;
            description: string;
            endpoint: {
                id: string;
                name: string;
                /** @enum {string} */
                kind: "openai" | "faux";
                model: string;
                deleted: boolean;
            };
            systemPrompt: string;
            tools: {
                name: string;
                description: string;
                parameters: {
                    [key: string]: components["schemas"]["JsonValue"];
                };
                /** @default false */
                idempotent: boolean;
            }[];
            sandbox: {
                /** @enum {string} */
                driver?: "bwrap" | "podman" | "gvisor" | "microvm" | "dangerous-none";
                /** @enum {string} */
                podmanRuntime?: "runc" | "crun" | "runsc";
                /** @enum {string} */
                whenIsolationUnavailable?: "refuse-call" | "fail-run" | "wait";
                /** @enum {string} */
                network?: "none" | "egress";
                egressHosts?: string[];
                timeoutMs?: number;
                memoryMb?: number;
                cpus?: number;
                pids?: number;
            };
            slashCommands: {
                name: string;
                /** @default  */
                description: string;
                goalTemplate: string;
                /** @default [] */
                args: {
                    name: string;
                    /** @default false */
                    required: boolean;
                    /** @default  */
                    description: string;
                }[];
                skill?: string;
            }[];
            /** @enum {string} */
            busyPolicy: "reject" | "enqueue" | "interrupt";
            maxConcurrentRuns: number | null;
            /** @description The files its runs start from unless a run names its own; null: an empty workspace */
            workspace: components["schemas"]["WorkspaceSource"] | null;
            /** @description Names of the team skills its runs may load */
            skills: string[];
            /** @description Its runs never finish on a final answer: each waits (free) for the next message */
            persistent: boolean;
            version: number;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
        };
        /** @description The team’s graphs (archived ones left out), by name */
        GraphList: components["schemas"]["GraphSummary"][];
        GraphSummary: {
            id: string;
            name: string;
            description: string;
            currentVersion: number;
            updatedAt: components["schemas"]["Timestamp"];
            /** @description The root node’s key */
            root: string;
            /** @description How many nodes */
            nodes: number;
            /** @description How many edges */
            edges: number;
        };
        Graph: {
            id: string;
            name: string;
            description: string;
            version: number;
            currentVersion: number;
            root: string;
            nodes: {
                key: string;
                agentId: string;
                /** @enum {string} */
                isolation: "shared" | "process";
                readPrefixes: string[];
                writePrefixes: string[];
                position: {
                    x: number;
                    y: number;
                };
                /** @description The files a run starts from when it names none (the root node’s counts, else its agent’s) */
                workspace: components["schemas"]["WorkspaceSource"] | null;
                /** @description The least isolation the node’s calls run with; the stronger of it and its agent’s sandbox.driver applies */
                minimumDriver: ("bwrap" | "podman" | "gvisor" | "microvm") | null;
            }[];
            edges: {
                id: string;
                from: string;
                to: string;
                purpose: string;
                budget: {
                    tokens?: number;
                    costMicros?: number;
                    calls?: number;
                    maxConcurrent?: number;
                };
                approval: {
                    /** @constant */
                    mode: "never";
                } | {
                    /** @constant */
                    mode: "always";
                } | {
                    /** @constant */
                    mode: "aboveCost";
                    costMicros: number;
                };
                data: {
                    maxBytesIn?: number;
                    maxBytesOut?: number;
                    /** @default [] */
                    redact: string[];
                };
            }[];
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
        };
        SessionForked: {
            sessionId: string;
            runId: string;
            parentId: string;
            atEvent: number;
        };
        SessionReplayed: {
            sessionId: string;
            runId: string;
            parentId: string;
            atEvent: number;
            /** @enum {string} */
            mode: "stop" | "live";
        };
        SessionResumed: {
            sessionId: string;
            runId: string;
            /** @constant */
            status: "idle";
        };
        SessionRestoreRequested: {
            requestId: string;
            sessionId: string;
            runId: string;
            atEvent: number;
            /** @description The commit recorded at that event, whose files are restored; null: the empty workspace */
            commit: string | null;
            /** @description The paths restored; null: the whole workspace */
            paths: string[] | null;
            /** @description The session had finished: it is reopened to apply the restore, then finishes again with the same outcome */
            reopened: boolean;
        };
        SessionFiles: {
            runId: string;
            sessionId: string;
            atEvent: number;
            /** @description The commit read; null: no call had changed a file by then */
            commit: string | null;
            node: components["schemas"]["WorkspaceNode"];
        };
        WorkspaceNode: {
            /** @constant */
            kind: "dir";
            path: string;
            entries: {
                name: string;
                path: string;
                /** @enum {string} */
                type: "file" | "dir" | "symlink" | "submodule";
                /** @description Bytes, for files and symlinks */
                size: number | null;
            }[];
        } | {
            /** @constant */
            kind: "file";
            path: string;
            size: number;
            /** @enum {string} */
            encoding: "utf8" | "base64";
            content: string;
            /** @description The file is over 1 MiB: `content` holds its first MiB */
            truncated: boolean;
        };
        /** @description A `git format-patch` series (mbox, one message per call that changed files, binary changes included); `git am` applies it */
        SessionPatch: string;
        AuditExport: {
            /** @description A file name to save it as */
            filename: string;
            /** @description JSON Lines: a header line, then one line per audit row, oldest first (`looplane audit verify` checks it) */
            text: string;
            rows: number;
            /** @description The hash of the last row: the chain’s head */
            headHash: string;
        };
        /** @description Admins see every token of the team; others the ones they made, of their role or below */
        TokenList: components["schemas"]["Token"][];
        Token: {
            id: string;
            name: string;
            prefix: string;
            role: components["schemas"]["Role"];
            createdAt: components["schemas"]["Timestamp"];
            lastUsedAt: components["schemas"]["Timestamp"] | null;
            expiresAt: components["schemas"]["Timestamp"] | null;
            revokedAt: components["schemas"]["Timestamp"] | null;
            createdBy: {
                id: string;
                email: string;
            };
        };
        TokenCreated: {
            id: string;
            /** @description The secret, shown this once: send it as `Authorization: Bearer …` */
            token: string;
            prefix: string;
            role: components["schemas"]["Role"];
            expiresAt: components["schemas"]["Timestamp"] | null;
        };
        TokenRevoked: {
            id: string;
            revokedAt: components["schemas"]["Timestamp"];
        };
        McpServerList: components["schemas"]["McpServer"][];
        McpServer: {
            id: string;
            name: string;
            /** @enum {string} */
            transport: "stdio" | "http";
            command: string | null;
            args: string[];
            url: string | null;
            /** @description Tool names a worker listed (`mcp:<name>:<tool>` in runs); empty until listed */
            tools: string[];
            /** @description When a worker listed them; null: waiting for a worker */
            toolsCheckedAt: components["schemas"]["Timestamp"] | null;
            toolsError: string | null;
            createdAt: components["schemas"]["Timestamp"];
        };
        McpServerRemoved: {
            id: string;
            /** @constant */
            removed: true;
        };
        Upload: {
            id: string;
            filename: string;
            /**
             * @description Told apart by the bytes, not the name
             * @enum {string}
             */
            format: "tar" | "tar.gz" | "zip";
            /** @description Size of the archive as uploaded */
            bytes: number;
            /** @description Entries it unpacks to: files, directories and links */
            files: number;
            unpackedBytes: number;
            sha256: string;
            createdAt: components["schemas"]["Timestamp"];
            /** @description When it is deleted unless a run uses it first; null once a run used it (then it is kept) */
            expiresAt: components["schemas"]["Timestamp"] | null;
            /** @description When a run first used it */
            usedAt: components["schemas"]["Timestamp"] | null;
        };
        /** @description The team’s skills, by name */
        SkillList: components["schemas"]["Skill"][];
        Skill: {
            id: string;
            teamId: string;
            name: string;
            /** @description The one line the model sees before it loads the skill */
            description: string;
            /** @description Markdown, added to the context when the model loads the skill */
            instructions: string;
            /** @description Text files written into the workspace when it is loaded */
            files: {
                path: string;
                content: string;
            }[];
            /** @description Bumped by every change */
            version: number;
            createdById: string | null;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
            archivedAt: components["schemas"]["Timestamp"] | null;
        };
        /** @description The team’s schedules, by name */
        ScheduleList: components["schemas"]["Schedule"][];
        Schedule: {
            id: string;
            teamId: string;
            name: string;
            /** @description The agent each tick runs (or graphId) */
            agentId: string | null;
            /** @description The swarm graph each tick runs (or agentId) */
            graphId: string | null;
            /** @description 5 fields (minute first) or 6 (seconds first), read in `timezone`; or everySeconds */
            cron: string | null;
            /** @description A tick every this many seconds (aligned to the Unix epoch); or cron */
            everySeconds: number | null;
            /** @description The IANA time zone the cron is read in */
            timezone: string;
            /** @description The runs’ goal; `{{scheduledAt}}` becomes the tick’s time (ISO, UTC) */
            goal: string;
            budget: components["schemas"]["ScheduleBudget"];
            /** @description Where each run’s files come from; null: the agent’s default */
            workspace: components["schemas"]["WorkspaceSource"] | null;
            overlap: components["schemas"]["ScheduleOverlap"];
            catchUp: components["schemas"]["ScheduleCatchUp"];
            /** @description false: paused (no tick fires) */
            enabled: boolean;
            /** @description This many failed runs in a row pause the schedule (webhook `schedule.paused`) */
            pauseAfterFailures: number;
            consecutiveFailures: number;
            /** @description Why it paused itself (failed runs in a row); null when a person paused it or it runs */
            pausedReason: string | null;
            /** @description The next tick; null while paused */
            nextFireAt: components["schemas"]["Timestamp"] | null;
            /** @description The latest tick that started a run */
            lastFiredAt: components["schemas"]["Timestamp"] | null;
            createdById: string | null;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
        };
        ScheduleBudget: {
            tokens?: number;
            costMicros?: number;
            toolCalls?: number;
            wallMs?: number;
            /** @enum {string} */
            onExceed?: "wait" | "fail";
        };
        /**
         * @description A tick while the previous run is unfinished: skip it, start anyway (queue), or cancel the previous run first
         * @enum {string}
         */
        ScheduleOverlap: "skip" | "queue" | "cancel_previous";
        /**
         * @description Ticks missed while no worker ran: none, or only the latest one
         * @enum {string}
         */
        ScheduleCatchUp: "none" | "latest";
        ScheduleDetail: {
            id: string;
            teamId: string;
            name: string;
            /** @description The agent each tick runs (or graphId) */
            agentId: string | null;
            /** @description The swarm graph each tick runs (or agentId) */
            graphId: string | null;
            /** @description 5 fields (minute first) or 6 (seconds first), read in `timezone`; or everySeconds */
            cron: string | null;
            /** @description A tick every this many seconds (aligned to the Unix epoch); or cron */
            everySeconds: number | null;
            /** @description The IANA time zone the cron is read in */
            timezone: string;
            /** @description The runs’ goal; `{{scheduledAt}}` becomes the tick’s time (ISO, UTC) */
            goal: string;
            budget: components["schemas"]["ScheduleBudget"];
            /** @description Where each run’s files come from; null: the agent’s default */
            workspace: components["schemas"]["WorkspaceSource"] | null;
            overlap: components["schemas"]["ScheduleOverlap"];
            catchUp: components["schemas"]["ScheduleCatchUp"];
            /** @description false: paused (no tick fires) */
            enabled: boolean;
            /** @description This many failed runs in a row pause the schedule (webhook `schedule.paused`) */
            pauseAfterFailures: number;
            consecutiveFailures: number;
            /** @description Why it paused itself (failed runs in a row); null when a person paused it or it runs */
            pausedReason: string | null;
            /** @description The next tick; null while paused */
            nextFireAt: components["schemas"]["Timestamp"] | null;
            /** @description The latest tick that started a run */
            lastFiredAt: components["schemas"]["Timestamp"] | null;
            createdById: string | null;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
            /** @description Its latest ticks, newest first: runs started, skips, failures */
            ticks: components["schemas"]["ScheduleTick"][];
        };
        ScheduleTick: {
            id: string;
            /** @description The tick’s time */
            scheduledAt: components["schemas"]["Timestamp"];
            /** @enum {string} */
            outcome: "started" | "skipped" | "failed";
            /** @description Why it was skipped or failed (or `run now`) */
            reason: string | null;
            runId: string | null;
            /** @description The status of the tick’s run now */
            runStatus: components["schemas"]["RunStatus"] | null;
        };
        /** @description The schedule and its ticks are gone; its runs stay, no longer linked */
        ScheduleDeleted: {
            id: string;
            /** @constant */
            deleted: true;
        };
        ScheduleRunStarted: {
            runId: string;
        };
        /** @description The team’s triggers, oldest first */
        TriggerList: components["schemas"]["Trigger"][];
        Trigger: {
            id: string;
            teamId: string;
            name: string;
            /** @description Where deliveries are POSTed, below the server’s URL: /api/hooks/{id} */
            path: string;
            target: components["schemas"]["TriggerTarget"];
            auth: components["schemas"]["TriggerAuth"];
            rateLimitPerMinute: number;
            enabled: boolean;
            /** @description Whose runs the deliveries start (its creator, while an operator or above of the team) */
            createdById: string | null;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
        };
        TriggerTarget: components["schemas"]["TriggerStartRun"] | components["schemas"]["TriggerMessageRun"];
        /** @description Each delivery starts a run of the agent or graph */
        TriggerStartRun: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "start_run";
            agentId: string | null;
            graphId: string | null;
            /** @description The goal; each `{{payload.a.b}}` becomes that value of the delivery, as delimited data */
            goalTemplate: string;
            budget: components["schemas"]["TriggerBudget"];
            workspace: components["schemas"]["WorkspaceSource"] | null;
        };
        TriggerBudget: {
            tokens?: number;
            costMicros?: number;
            toolCalls?: number;
            wallMs?: number;
            /** @enum {string} */
            onExceed?: "wait" | "fail";
        };
        /** @description Each delivery is a message to the run (a finished run continues with it) */
        TriggerMessageRun: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "message_run";
            runId: string;
            /** @description null: the trigger’s name and the whole payload, as delimited data */
            messageTemplate: string | null;
        };
        /**
         * @description standard_webhooks: a signed request; bearer: Authorization: Bearer <secret>
         * @enum {string}
         */
        TriggerAuth: "standard_webhooks" | "bearer";
        TriggerWithSecret: {
            trigger: components["schemas"]["Trigger"];
            /** @description Shown this once: `whsec_…` (Standard Webhooks signing secret) or the bearer secret */
            secret: string;
        };
        TriggerDeleted: {
            id: string;
            /** @constant */
            deleted: true;
        };
        TriggerDeliveryPage: {
            items: components["schemas"]["TriggerDelivery"][];
            nextCursor: string | null;
        };
        TriggerDelivery: {
            id: string;
            webhookId: string | null;
            /** @description The HTTP status the delivery was answered with */
            status: number;
            accepted: boolean;
            /** @description Why it was refused (or that it repeated an accepted webhook-id) */
            reason: string | null;
            runId: string | null;
            bytes: number;
            createdAt: components["schemas"]["Timestamp"];
        };
        JsonValue: JsonValue;
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The token’s identity */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listRuns: {
        parameters: {
            query?: {
                /** @description Repeat to give several: ?status=running&status=waiting */
                status?: ("queued" | "running" | "waiting" | "paused" | "succeeded" | "failed" | "cancelled")[];
                agentId?: string;
                createdById?: string;
                /** @description Case-insensitive substring of the goal */
                text?: string;
                /** @description Newest first by creation (default) or by last update */
                sort?: "created" | "updated";
                /** @description Runs per page (default 50) */
                limit?: number;
                /** @description `nextCursor` of the previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of runs */
            200: {
                headers: {
                    /** @description `rel="next"`: the next page, when there is one */
                    link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunPage"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createRun: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same body within 24 hours returns the first response (`Idempotent-Replayed: true`) and starts nothing; the same key with another body is 422; while the first is in progress, 409. Keys are per token. A request that failed does not keep its key. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "agentName": "triage",
                 *       "goal": "Fix the failing test",
                 *       "budget": {
                 *         "tokens": 200000,
                 *         "onExceed": "wait"
                 *       },
                 *       "workspace": {
                 *         "git": {
                 *           "url": "https://github.com/acme/api.git",
                 *           "ref": "main",
                 *           "secretRef": "GITHUB_TOKEN"
                 *         }
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["CreateRunRequest"];
            };
        };
        responses: {
            /** @description The run was created (queued); `Location` is its URL */
            201: {
                headers: {
                    /** @description The created run’s URL */
                    location: string;
                    /** @description This is the stored response of an earlier request with the same key */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunCreated"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A conflict: it already exists or was changed meanwhile, or a request with this `Idempotency-Key` is still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not possible in the resource’s current state (`detail` says why) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 1048576 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not `application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is JSON but not valid for this operation (`errors` names each field), or its `Idempotency-Key` was used with another body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The team started too much work; `Retry-After` says how many seconds to wait */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    cancelRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Cancellation was requested */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunCancelRequested"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not possible in the resource’s current state (`detail` says why) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sendRunMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "text": "Also check the flaky test"
                 *     }
                 */
                "application/json": components["schemas"]["SendMessageRequest"];
            };
        };
        responses: {
            /** @description The message was queued for the run */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageSent"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not possible in the resource’s current state (`detail` says why) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 1048576 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not `application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is JSON but not valid for this operation (`errors` names each field), or its `Idempotency-Key` was used with another body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    raiseRunBudget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "tokens": 100000
                 *     }
                 */
                "application/json": components["schemas"]["RaiseBudgetRequest"];
            };
        };
        responses: {
            /** @description The new limits */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BudgetRaised"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not possible in the resource’s current state (`detail` says why) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 1048576 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not `application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is JSON but not valid for this operation (`errors` names each field), or its `Idempotency-Key` was used with another body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listRunEvents: {
        parameters: {
            query?: {
                /** @description Events with an event number above this (default 0: from the start) */
                after?: number;
                /** @description Events per page (default 200) */
                limit?: number;
            };
            header?: never;
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of events */
            200: {
                headers: {
                    /** @description `rel="stream"`: the live SSE stream after this page; `rel="next"`: the next page, while there is one */
                    link: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunEventPage"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listApprovals: {
        parameters: {
            query?: {
                /** @description Omitted: every status, pending first */
                status?: "pending" | "approved" | "rejected" | "expired" | "cancelled";
                runId?: string;
                /** @description `nextCursor` of the previous page */
                cursor?: string;
                /** @description Approvals per page (default 50) */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of approvals */
            200: {
                headers: {
                    /** @description `rel="next"`: the next page, when there is one */
                    link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApprovalPage"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApproval: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                approvalId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The approval */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Approval"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    decideApproval: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                approvalId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "decision": "reject",
                 *       "comment": "Do not delete the fixtures"
                 *     }
                 */
                "application/json": components["schemas"]["DecideApprovalRequest"];
            };
        };
        responses: {
            /** @description The decision was recorded */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApprovalDecided"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A conflict: it already exists or was changed meanwhile, or a request with this `Idempotency-Key` is still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not possible in the resource’s current state (`detail` says why) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 1048576 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not `application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is JSON but not valid for this operation (`errors` names each field), or its `Idempotency-Key` was used with another body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listAgents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The agents, by name */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentList"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The agent template */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Agent"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "description": "Triages new issues",
                 *       "expectedVersion": 1
                 *     }
                 */
                "application/json": components["schemas"]["UpdateAgentRequest"];
            };
        };
        responses: {
            /** @description The changed agent template */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Agent"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A conflict: it already exists or was changed meanwhile, or a request with this `Idempotency-Key` is still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not possible in the resource’s current state (`detail` says why) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 1048576 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not `application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is JSON but not valid for this operation (`errors` names each field), or its `Idempotency-Key` was used with another body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listGraphs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The graphs, by name */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GraphList"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getGraph: {
        parameters: {
            query?: {
                /** @description A version of the graph (default: its current one) */
                version?: number;
            };
            header?: never;
            path: {
                graphId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The graph */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Graph"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    runGraph: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same body within 24 hours returns the first response (`Idempotent-Replayed: true`) and starts nothing; the same key with another body is 422; while the first is in progress, 409. Keys are per token. A request that failed does not keep its key. */
                "Idempotency-Key"?: string;
            };
            path: {
                graphId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "goal": "Review the release notes"
                 *     }
                 */
                "application/json": components["schemas"]["GraphRunRequest"];
            };
        };
        responses: {
            /** @description The run was created (queued); `Location` is its URL */
            201: {
                headers: {
                    /** @description The created run’s URL */
                    location: string;
                    /** @description This is the stored response of an earlier request with the same key */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunCreated"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A conflict: it already exists or was changed meanwhile, or a request with this `Idempotency-Key` is still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not possible in the resource’s current state (`detail` says why) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 1048576 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not `application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is JSON but not valid for this operation (`errors` names each field), or its `Idempotency-Key` was used with another body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The team started too much work; `Retry-After` says how many seconds to wait */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    forkSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "atEvent": 4,
                 *       "message": "Try the other approach"
                 *     }
                 */
                "application/json": components["schemas"]["ForkSessionRequest"];
            };
        };
        responses: {
            /** @description The branch was created and queued */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionForked"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not possible in the resource’s current state (`detail` says why) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 1048576 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not `application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is JSON but not valid for this operation (`errors` names each field), or its `Idempotency-Key` was used with another body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The team started too much work; `Retry-After` says how many seconds to wait */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    replaySession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "endpointId": "cmexampleendpoint0000000",
                 *       "mode": "stop"
                 *     }
                 */
                "application/json": components["schemas"]["ReplaySessionRequest"];
            };
        };
        responses: {
            /** @description The replay branch was created and queued */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionReplayed"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not possible in the resource’s current state (`detail` says why) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 1048576 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not `application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is JSON but not valid for this operation (`errors` names each field), or its `Idempotency-Key` was used with another body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The team started too much work; `Retry-After` says how many seconds to wait */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    resumeSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "message": "Now write the tests"
                 *     }
                 */
                "application/json": components["schemas"]["ResumeSessionRequest"];
            };
        };
        responses: {
            /** @description The session was queued with the message */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionResumed"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not possible in the resource’s current state (`detail` says why) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 1048576 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not `application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is JSON but not valid for this operation (`errors` names each field), or its `Idempotency-Key` was used with another body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The team started too much work; `Retry-After` says how many seconds to wait */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    restoreSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "atEvent": 4,
                 *       "paths": [
                 *         "src/app.ts"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["RestoreSessionRequest"];
            };
        };
        responses: {
            /** @description The restore was recorded (and audited); the worker applies it */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionRestoreRequested"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A conflict: it already exists or was changed meanwhile, or a request with this `Idempotency-Key` is still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not possible in the resource’s current state (`detail` says why) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 1048576 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not `application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is JSON but not valid for this operation (`errors` names each field), or its `Idempotency-Key` was used with another body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getSessionFiles: {
        parameters: {
            query?: {
                /** @description An event seq of the session (default: its latest committed event) */
                atEvent?: number;
                /** @description A directory or file, relative to the workspace root (default: the root) */
                path?: string;
            };
            header?: never;
            path: {
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The directory or file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionFiles"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not possible in the resource’s current state (`detail` says why) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getSessionPatch: {
        parameters: {
            query?: {
                /** @description An event seq of the session whose files the series starts from (default: the files the run was seeded with) */
                base?: number;
            };
            header?: never;
            path: {
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The patch series (an attachment named `<sessionId>.patch`) */
            200: {
                headers: {
                    /** @description `attachment; filename="…"`: the file’s name */
                    "content-disposition": string;
                    [name: string]: unknown;
                };
                content: {
                    "text/x-patch": components["schemas"]["SessionPatch"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not possible in the resource’s current state (`detail` says why) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    exportAudit: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The export */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditExport"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tokens, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenList"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "ci",
                 *       "role": "operator",
                 *       "expiresInDays": 90
                 *     }
                 */
                "application/json": components["schemas"]["CreateTokenRequest"];
            };
        };
        responses: {
            /** @description The token, with its secret */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenCreated"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 1048576 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not `application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is JSON but not valid for this operation (`errors` names each field), or its `Idempotency-Key` was used with another body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    revokeToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tokenId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The token was revoked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenRevoked"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A conflict: it already exists or was changed meanwhile, or a request with this `Idempotency-Key` is still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listMcpServers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The servers, by name */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["McpServerList"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    addMcpServer: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "files",
                 *       "transport": "stdio",
                 *       "command": "mcp-files",
                 *       "args": [
                 *         "--root",
                 *         "."
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["AddMcpServerRequest"];
            };
        };
        responses: {
            /** @description The server was added */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["McpServer"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A conflict: it already exists or was changed meanwhile, or a request with this `Idempotency-Key` is still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 1048576 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not `application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is JSON but not valid for this operation (`errors` names each field), or its `Idempotency-Key` was used with another body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    refreshMcpServer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                serverId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The server, waiting for a worker to list its tools */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["McpServer"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    removeMcpServer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                serverId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The server was removed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["McpServerRemoved"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createUpload: {
        parameters: {
            query?: {
                /** @description The archive’s name (else `Content-Disposition`’s, a form part’s, or `upload.<format>`) */
                filename?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The archive (.tar, .tar.gz/.tgz or .zip; told apart by its bytes): as `multipart/form-data` with one field `file`, or as the raw bytes, named by `?filename=` or `Content-Disposition: attachment; filename=…`. */
        requestBody: {
            content: {
                "multipart/form-data": {
                    file: string;
                };
                "application/gzip": string;
                "application/x-tar": string;
                "application/zip": string;
                "application/octet-stream": string;
            };
        };
        responses: {
            /** @description The archive was checked and stored */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Upload"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The file is larger than the server’s upload limit (LOOPLANE_UPLOAD_MAX_MB, default 100 MB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is neither `multipart/form-data` nor an archive’s bytes (`application/gzip`, `application/x-tar`, `application/zip`, `application/octet-stream`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uploadId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The upload */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Upload"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listSkills: {
        parameters: {
            query?: {
                /** @description true: archived skills too */
                archived?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The skills, by name */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SkillList"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createSkill: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "quote-drafting",
                 *       "description": "Drafts a quote from the supplier catalogue",
                 *       "instructions": "# Quotes\nPrices in EUR."
                 *     }
                 */
                "application/json": components["schemas"]["CreateSkillRequest"];
            };
        };
        responses: {
            /** @description The skill, at version 1 */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Skill"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A conflict: it already exists or was changed meanwhile, or a request with this `Idempotency-Key` is still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 1048576 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not `application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is JSON but not valid for this operation (`errors` names each field), or its `Idempotency-Key` was used with another body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getSkill: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                skillId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The skill */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Skill"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateSkill: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                skillId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "description": "Drafts a quote in EUR",
                 *       "expectedVersion": 1
                 *     }
                 */
                "application/json": components["schemas"]["UpdateSkillRequest"];
            };
        };
        responses: {
            /** @description The changed skill */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Skill"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A conflict: it already exists or was changed meanwhile, or a request with this `Idempotency-Key` is still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 1048576 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not `application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is JSON but not valid for this operation (`errors` names each field), or its `Idempotency-Key` was used with another body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    archiveSkill: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                skillId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["ArchiveSkillRequest"];
            };
        };
        responses: {
            /** @description The skill, archived or restored */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Skill"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A conflict: it already exists or was changed meanwhile, or a request with this `Idempotency-Key` is still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 1048576 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not `application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is JSON but not valid for this operation (`errors` names each field), or its `Idempotency-Key` was used with another body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listSchedules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schedules, by name */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleList"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
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
                /**
                 * @example {
                 *       "name": "nightly-triage",
                 *       "agentId": "cmexampleagent0000000000",
                 *       "cron": "0 6 * * 1-5",
                 *       "timezone": "Europe/Berlin",
                 *       "goal": "Triage the inbox"
                 *     }
                 */
                "application/json": components["schemas"]["CreateScheduleRequest"];
            };
        };
        responses: {
            /** @description The schedule, with its first tick in `nextFireAt` */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Schedule"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A conflict: it already exists or was changed meanwhile, or a request with this `Idempotency-Key` is still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 1048576 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not `application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is JSON but not valid for this operation (`errors` names each field), or its `Idempotency-Key` was used with another body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getSchedule: {
        parameters: {
            query?: {
                /** @description Its latest ticks to list, newest first (default 100) */
                ticks?: number;
            };
            header?: never;
            path: {
                scheduleId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schedule and its latest ticks */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleDetail"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                scheduleId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schedule was deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleDeleted"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                scheduleId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "cron": "0 7 * * 1-5"
                 *     }
                 */
                "application/json": components["schemas"]["UpdateScheduleRequest"];
            };
        };
        responses: {
            /** @description The changed schedule */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Schedule"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A conflict: it already exists or was changed meanwhile, or a request with this `Idempotency-Key` is still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 1048576 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not `application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is JSON but not valid for this operation (`errors` names each field), or its `Idempotency-Key` was used with another body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    pauseSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                scheduleId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schedule, paused (`enabled: false`, `nextFireAt: null`) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Schedule"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    resumeSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                scheduleId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schedule, enabled, with its next tick */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Schedule"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    runScheduleNow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                scheduleId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run was created (queued) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleRunStarted"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not possible in the resource’s current state (`detail` says why) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The team started too much work; `Retry-After` says how many seconds to wait */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listTriggers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The triggers, oldest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TriggerList"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createTrigger: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "purchasing-inbox",
                 *       "target": {
                 *         "type": "start_run",
                 *         "agentId": "cmexampleagent0000000000",
                 *         "goalTemplate": "Draft a quote for {{payload.mail.subject}}"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["CreateTriggerRequest"];
            };
        };
        responses: {
            /** @description The trigger and its secret (shown this once) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TriggerWithSecret"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A conflict: it already exists or was changed meanwhile, or a request with this `Idempotency-Key` is still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not possible in the resource’s current state (`detail` says why) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 1048576 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not `application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is JSON but not valid for this operation (`errors` names each field), or its `Idempotency-Key` was used with another body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getTrigger: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                triggerId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The trigger (never its secret) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Trigger"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteTrigger: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                triggerId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The trigger was deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TriggerDeleted"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateTrigger: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                triggerId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "enabled": false
                 *     }
                 */
                "application/json": components["schemas"]["UpdateTriggerRequest"];
            };
        };
        responses: {
            /** @description The changed trigger */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Trigger"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A conflict: it already exists or was changed meanwhile, or a request with this `Idempotency-Key` is still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 1048576 bytes */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not `application/json` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is JSON but not valid for this operation (`errors` names each field), or its `Idempotency-Key` was used with another body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    rotateTriggerSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                triggerId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The trigger and its new secret (shown this once) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TriggerWithSecret"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not possible in the resource’s current state (`detail` says why) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listTriggerDeliveries: {
        parameters: {
            query?: {
                /** @description `nextCursor` of the previous page */
                cursor?: string;
                /** @description Deliveries per page (default 20) */
                limit?: number;
            };
            header?: never;
            path: {
                triggerId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries */
            200: {
                headers: {
                    /** @description `rel="next"`: the next page, when there is one */
                    link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TriggerDeliveryPage"];
                };
            };
            /** @description Bad request: malformed JSON, or a bad or unknown path or query parameter (`errors` names each) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No valid team API token: send `Authorization: Bearer llp_…` (a session cookie does not count) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token’s role is too low for this, or its creator is no longer in the team */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the token’s team */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
}

/** Any JSON value: the document's recursive `JsonValue` schema. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
