"""Operations endpoints: readiness and metrics (liveness, /health/, stays with the pages)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from ops import checks, metrics
from ops.access import may_read_metrics


@never_cache
@require_GET
def ready(request: HttpRequest) -> JsonResponse:
    """200 only when the database, the channel layer and the broker answer; else 503 naming those that do not."""
    answers = checks.readiness()
    failing = sorted(name for name, answer in answers.items() if answer != "ok")
    body = {"status": "unready" if failing else "ready", "failing": failing, "checks": answers}
    return JsonResponse(body, status=503 if failing else 200)


@never_cache
@require_GET
def metrics_view(request: HttpRequest) -> HttpResponse:
    """This process's figures in Prometheus's text format, for the readers ops.access names."""
    if not may_read_metrics(request):
        return JsonResponse({"detail": "Metrics are not public.", "code": "permission_denied"}, status=403)
    body, content_type = metrics.render()
    return HttpResponse(body, content_type=content_type)
