"""What the moderation routes accept and answer: a player's blocks and reports
(``/players/me/blocks``, ``/players/{id}/report``) and the operators' routes
(``/admin/...``). Documentation and validation only, as for the other answers
(shared/http/schemas/answers.py)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from shared.http.schemas.fields import REQ
from shared.usecases.moderation import ACTIONS, MAX_NOTE, MAX_SUSPENSION_SECONDS, REASONS

NULLABLE: dict[str, Any] = {"required": True, "allow_none": True}


class PageQuerySchema(Schema):
    limit = fields.Integer(load_default=20, validate=validate.Range(1, 100))
    cursor = fields.String(validate=validate.Length(1, 200))


class BlockedSchema(Schema):
    player = fields.String(**REQ)
    name = fields.String(**REQ, metadata={"description": "Its name now (erased: a placeholder)."})


class BlocksPageSchema(Schema):
    blocks = fields.List(fields.Nested(BlockedSchema), **REQ)
    next_cursor = fields.String(**NULLABLE)


class ReportBodySchema(Schema):
    reason = fields.String(
        required=True,
        validate=validate.OneOf(REASONS),
        metadata={"description": "One of " + ", ".join(f"`{r}`" for r in REASONS) + "."},
    )
    note = fields.String(
        validate=validate.Length(max=MAX_NOTE),
        metadata={"description": f"What the operator should know, at most {MAX_NOTE} characters."},
    )


class PlayerReportBodySchema(ReportBodySchema):
    game = fields.String(
        validate=validate.Length(1, 64),
        metadata={"description": "A game of this service where it happened (its context)."},
    )


class ReportReceiptSchema(Schema):
    id = fields.String(**REQ)
    kind = fields.String(**REQ, metadata={"description": "`player` or `message`."})
    status = fields.String(**REQ, metadata={"description": "`open` or `resolved`."})
    reason = fields.String(**REQ)
    note = fields.String(**NULLABLE)
    created_at = fields.String(**REQ)


class WhoSchema(Schema):
    player = fields.String(**NULLABLE, metadata={"description": "null: erased, or no player."})
    name = fields.String(**NULLABLE)


class ResolutionSchema(Schema):
    action = fields.String(**REQ)
    note = fields.String(**NULLABLE)
    by = fields.String(**REQ, metadata={"description": "The operator's API key id."})
    at = fields.String(**REQ)


class ReportSchema(ReportReceiptSchema):
    reporter = fields.Nested(WhoSchema, **REQ)
    subject = fields.Nested(WhoSchema, **REQ)
    context = fields.Dict(
        **REQ,
        metadata={
            "description": "As captured when filed: `service`, `game`, `version`, "
            "`players` (seat, name, player), `message` (the reported one's id) and "
            "`messages` (up to 10 around it)."
        },
    )
    resolution = fields.Nested(ResolutionSchema, **NULLABLE)


class ReportsQuerySchema(PageQuerySchema):
    status = fields.String(load_default="open", validate=validate.OneOf(["open", "resolved"]))


class ReportsPageSchema(Schema):
    reports = fields.List(fields.Nested(ReportSchema), **REQ)
    next_cursor = fields.String(**NULLABLE)


class ResolveBodySchema(Schema):
    action = fields.String(
        required=True,
        validate=validate.OneOf(ACTIONS),
        metadata={"description": "`dismissed` (nothing wrong) or `actioned` (acted on)."},
    )
    note = fields.String(validate=validate.Length(max=MAX_NOTE))


class ReasonBodySchema(Schema):
    reason = fields.String(
        validate=validate.Length(max=MAX_NOTE),
        metadata={"description": "Why, for the audit log."},
    )


class DeleteMessageBodySchema(Schema):
    reason = fields.String(
        required=True,
        validate=validate.Length(1, MAX_NOTE),
        metadata={"description": "Why, for the audit log."},
    )


class SuspendBodySchema(Schema):
    seconds = fields.Integer(
        validate=validate.Range(1, MAX_SUSPENSION_SECONDS),
        metadata={"description": "How long from now (or give `until`)."},
    )
    until = fields.AwareDateTime(
        metadata={"description": "Until when, RFC 3339 (or give `seconds`)."},
    )
    reason = fields.String(
        required=True,
        validate=validate.Length(1, MAX_NOTE),
        metadata={"description": "Why, for the audit log."},
    )


class SuspensionSchema(Schema):
    player = fields.String(**REQ)
    until = fields.String(**REQ)


class AuditEntrySchema(Schema):
    id = fields.String(**REQ)
    who = fields.String(**REQ, metadata={"description": "The operator's API key id."})
    at = fields.String(**REQ)
    action = fields.String(
        **REQ,
        metadata={
            "description": "`report.dismissed`, `report.actioned`, `message.delete`, "
            "`player.suspend`, `player.unsuspend`."
        },
    )
    target = fields.String(
        **REQ, metadata={"description": "`report:<id>`, `player:<id>`, `message:<game>/<id>`."}
    )
    reason = fields.String(**NULLABLE)


class AuditSchema(Schema):
    entries = fields.List(fields.Nested(AuditEntrySchema), **REQ)
    next_cursor = fields.String(**NULLABLE)


class ModerationExportSchema(Schema):
    blocks = fields.List(fields.Nested(BlockedSchema), **REQ)
    reports = fields.List(fields.Nested(ReportReceiptSchema), **REQ)
