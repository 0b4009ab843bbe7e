/**
 * A game loop an integrator would write against the types openapi-typescript generates
 * from docs/openapi/windcity.json, with openapi-fetch; `make openapi-ts` runs tsc --strict on it.
 */
import createClient from "openapi-fetch";
import type { components, paths } from "./generated/windcity.js";

type Move = components["schemas"]["WindCityMove"];
type Result = components["schemas"]["WindCityResult"];
type GameEvent = components["schemas"]["WindCityEvent"];

/** JSON answers only: the events endpoint also declares text/event-stream (SSE). */
type Json = "application/json" | "application/problem+json";

const bearer = (token: string): { Authorization: string } => ({ Authorization: `Bearer ${token}` });

/** What an event says, for a log line; the union narrows on `type`. */
export function describe(event: GameEvent): string {
  switch (event.type) {
    case "house_placed":
      return `seat ${event.seat} placed a house`;
    case "game_over":
      return `over (${event.reason}): winners ${event.result.winners.join(", ")}`;
    default:
      return event.type;
  }
}

/** Prefer a plan without a Kauf target; any listed move posts unchanged. */
function pick(moves: Move[]): Move | undefined {
  return moves.find((m) => m.type !== "plan" || m.kauf === null || m.kauf === undefined) ?? moves[0];
}

/** A complete two-player game; the final result. */
export async function play(baseUrl: string, seed: number): Promise<Result> {
  const api = createClient<paths, Json>({ baseUrl });
  const created = await api.POST("/games", { body: { players: 2, seed, max_turns: 40 } });
  if (!created.data) throw new Error(`create: ${created.error?.code}`);
  const path = { game_id: created.data.id };

  const tokens: string[] = [];
  for (const name of ["Ada", "Grace"]) {
    const joined = await api.POST("/games/{game_id}/players", { params: { path }, body: { name } });
    if (!joined.data?.token) throw new Error(`join: ${joined.error?.code}`);
    tokens[joined.data.seat] = joined.data.token;
  }
  const started = await api.POST("/games/{game_id}/start", {
    params: { path },
    headers: bearer(created.data.host_token),
  });
  if (!started.data) throw new Error(`start: ${started.error?.code}`);

  let after = "0";
  for (;;) {
    const viewed = await api.GET("/games/{game_id}", { params: { path } });
    if (!viewed.data) throw new Error(`view: ${viewed.error?.code}`);
    const view = viewed.data;
    if (view.status !== "running") {
      if (!view.result) throw new Error(`game ${view.status} without a result`);
      return view.result;
    }
    for (const seat of view.to_act) {
      const token = tokens[seat];
      if (token === undefined) throw new Error(`seat ${seat} is not ours`);
      const legal = await api.GET("/games/{game_id}/legal-moves", { params: { path }, headers: bearer(token) });
      const move = legal.data ? pick(legal.data.moves) : undefined;
      if (move === undefined) continue; // already moved this phase
      const posted = await api.POST("/games/{game_id}/moves", { params: { path }, headers: bearer(token), body: move });
      if (!posted.data && posted.error.code !== "not-your-turn") throw new Error(`move: ${posted.error.code}`);
    }
    const page = await api.GET("/games/{game_id}/events", { params: { path, query: { after } } });
    if (!page.data) throw new Error(`events: ${page.error?.code}`);
    for (const event of page.data.events) console.log(describe(event));
    after = page.data.last_id;
  }
}
