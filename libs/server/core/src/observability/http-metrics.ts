import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { HttpRequest, HttpResponse, Middleware, NextFunction } from '../http/express-types';
import { CLIENT_CLOSED_REQUEST } from '../logging/correlation.middleware';

export const METRICS_PREFIX = 'voltdepot_';

/** Route label for requests no route matched (404s, body-parser rejections): one series, not one per URL. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The service's Prometheus registry: default process metrics plus
 * `voltdepot_http_request_duration_seconds{method,route,status}`.
 * One per application instance (not prom-client's global registry), so several apps can
 * live in one process, as they do in tests. Areas add their own metrics to `registry`.
 */
export class ServiceMetrics {
  readonly registry: Registry;
  readonly httpRequestDuration: Histogram<'method' | 'route' | 'status'>;

  constructor(options: { service: string; defaultMetrics?: boolean }) {
    this.registry = new Registry();
    this.registry.setDefaultLabels({ service: options.service });
    if (options.defaultMetrics !== false)
      collectDefaultMetrics({ register: this.registry, prefix: METRICS_PREFIX });
    this.httpRequestDuration = new Histogram({
      name: `${METRICS_PREFIX}http_request_duration_seconds`,
      help: 'HTTP request duration in seconds, by method, matched route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
  }

  /** Times every request; register it before the body parsers so rejected bodies are counted too. */
  httpMiddleware(): Middleware {
    return (req: HttpRequest, res: HttpResponse, next: NextFunction) => {
      const stopTimer = this.httpRequestDuration.startTimer();
      res.once('close', () => {
        const status = res.writableFinished ? res.statusCode : CLIENT_CLOSED_REQUEST;
        stopTimer({ method: req.method ?? 'UNKNOWN', route: routeTemplate(req), status: String(status) });
      });
      next();
    };
  }

  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/** `/api/stations/:id`, never the raw URL, to keep label cardinality bounded. */
function routeTemplate(req: HttpRequest): string {
  const path = req.route?.path;
  if (typeof path === 'string') return `${req.baseUrl ?? ''}${path}`;
  if (Array.isArray(path)) return `${req.baseUrl ?? ''}${path.map(String).join('|')}`;
  return UNMATCHED_ROUTE;
}
