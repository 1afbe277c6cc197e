import { createEventBus } from './event-bus.js';

describe('event bus', () => {
  it('delivers a payload to every listener of that event only', () => {
    const bus = createEventBus();
    const created: string[] = [];
    const loaded: string[] = [];
    bus.on('sheet-created', (p) => created.push(`${p.sheetId}:${p.name}`));
    bus.on('sheet-loaded', (p) => loaded.push(p.sheetId));
    bus.emit('sheet-created', { sheetId: 's1', name: 'Budget' });
    expect(created).toEqual(['s1:Budget']);
    expect(loaded).toEqual([]);
  });

  it('stops delivering after unsubscribe', () => {
    const bus = createEventBus();
    const seen: string[] = [];
    const off = bus.on('sheet-loaded', (p) => seen.push(p.sheetId));
    bus.emit('sheet-loaded', { sheetId: 'a' });
    off();
    bus.emit('sheet-loaded', { sheetId: 'b' });
    expect(seen).toEqual(['a']);
  });

  it('keeps delivering when one listener throws', () => {
    const errors: unknown[] = [];
    const bus = createEventBus((_e, err) => errors.push(err));
    const seen: string[] = [];
    bus.on('sheet-loaded', () => {
      throw new Error('boom');
    });
    bus.on('sheet-loaded', (p) => seen.push(p.sheetId));
    bus.emit('sheet-loaded', { sheetId: 'x' });
    expect(seen).toEqual(['x']);
    expect(errors).toHaveLength(1);
  });
});
