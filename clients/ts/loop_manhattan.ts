/**
 * A game loop an integrator would write against the types openapi-typescript generates
 * from docs/openapi/manhattan.json, with openapi-fetch; `make openapi-ts` runs tsc --strict on it.
 */
import createClient from "openapi-fetch";
import type { components, paths } from "./generated/manhattan.js";

type Move = components["schemas"]["ManhattanMove"];
type Result = components["schemas"]["ManhattanResult"];
type GameEvent = components["schemas"]["ManhattanEvent"];

/** JSON answers only: the events endpoint also declares text/event-stream (SSE). */
type Json = "application/json" | "application/problem+json";

const bearer = (token: string): { Authorization: string } => ({ Authorization: `Bearer ${token}` });

/** What an event says, for a log line; the union narrows on `type`. */
export function describe(event: GameEvent): string {
  switch (event.type) {
    case "pieces_selected":
      return `seat ${event.seat} took ${event.pieces.join(", ")}`;
    case "piece_placed":
      return `seat ${event.seat} built ${event.floors} floor(s) in city ${event.city}`;
    case "game_over":
      return `over: winners ${event.result.winners.join(", ")}`;
    default:
      return event.type;
  }
}

/** A complete two-player game with the first legal move each time; the final result. */
export async function play(baseUrl: string, seed: number): Promise<Result> {
  const api = createClient<paths, Json>({ baseUrl });
  const created = await api.POST("/games", { body: { players: 2, seed } });
  if (!created.data) throw new Error(`create: ${created.error?.code}`);
  const gameId = created.data.id;
  const path = { game_id: gameId };

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
    const seat = view.to_act[0];
    const token = seat === undefined ? undefined : tokens[seat];
    if (token === undefined) throw new Error("no seat of ours to act");
    const legal = await api.GET("/games/{game_id}/legal-moves", { params: { path }, headers: bearer(token) });
    const move: Move | undefined = legal.data?.moves[0];
    if (move === undefined) throw new Error(`legal moves: ${legal.error?.code}`);
    const posted = await api.POST("/games/{game_id}/moves", {
      params: { path, header: { "If-Match": `"${view.version}"` } },
      headers: bearer(token),
      body: move,
    });
    if (!posted.data) throw new Error(`move: ${posted.error?.code} ${posted.error?.detail}`);
    const page = await api.GET("/games/{game_id}/events", { params: { path, query: { after } } });
    if (!page.data) throw new Error(`events: ${page.error?.code}`);
    for (const event of page.data.events) console.log(describe(event));
    after = page.data.last_id;
  }
}
