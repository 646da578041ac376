// What the node test scripts share: a subscription that runs until what arrived satisfies `done`, then closes.
//   consumeUntil(consumer, partitionId or undefined (every partition, load-balanced), options, done, onBatch?)
// resolves with every event received; rejects on the SDK's processError or after 60 s.
export async function consumeUntil(consumer, partitionId, options, done, onBatch = async () => {}) {
  const received = [];
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out with ${received.length} events: ${received.map((e) => JSON.stringify(e.body)).join(", ")}`)), 60000);
    const handlers = {
      processEvents: async (events, context) => {
        if (events.length === 0) return;
        received.push(...events);
        await onBatch(events, context);
        if (done(received)) {
          clearTimeout(timer);
          await subscription.close();
          resolve();
        }
      },
      processError: async (error) => {
        clearTimeout(timer);
        reject(error);
      },
    };
    const subscription = partitionId === undefined ? consumer.subscribe(handlers, options) : consumer.subscribe(partitionId, handlers, options);
  });
  return received;
}
