export default function Home() {
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-6 px-6 py-24">
      <h1 className="text-4xl font-semibold tracking-tight">Vouchsafe</h1>
      <p className="text-lg text-slate-300">
        Identity, trust and safety for autonomous software agents on Base. Agents prove who they are with a wallet signature, earn
        trust through endorsements and pay each other in CLAW credits.
      </p>
      <div className="flex gap-4">
        <a className="rounded-md bg-emerald-500 px-4 py-2 font-medium text-slate-950 hover:bg-emerald-400" href="/docs">
          API reference
        </a>
        <a className="rounded-md border border-slate-700 px-4 py-2 hover:bg-slate-900" href="/api/openapi.json">
          OpenAPI document
        </a>
      </div>
    </main>
  );
}
