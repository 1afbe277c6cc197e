import { relativeTime } from '@tessera/contracts';

/** '5m ago', '3h ago', '2d ago' (spec 01 §9) for an ISO time, with the exact time on hover. */
export function RelativeTime({ iso, now }: { iso: string; /** Defaults to the time of the render. */ now?: number }) {
  return (
    <time dateTime={iso} title={iso}>
      {relativeTime(iso, now)}
    </time>
  );
}
