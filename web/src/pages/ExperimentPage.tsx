// A saved experiment (/e/:id): restores the scenario, runs it again in the browser and shows that
// the resultHash matches the saved one.
import { useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import { api, ApiError, type SavedExperiment } from '../api';
import { Explorer } from './Explorer';

export function ExperimentPage() {
  const { id = '' } = useParams();
  const [experiment, setExperiment] = useState<SavedExperiment | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setExperiment(null);
    setError(null);
    api.getExperiment(id).then(
      (e) => live && setExperiment(e),
      (e) => {
        if (!live) return;
        if (e instanceof ApiError && e.status === 404) setError(`There is no saved experiment with id “${id}”. Check the link.`);
        else setError(e instanceof Error ? e.message : String(e));
      },
    );
    return () => {
      live = false;
    };
  }, [id]);
  if (error)
    return (
      <main className="page">
        <p className="error" role="alert" data-testid="experiment-error">
          {error}
        </p>
      </main>
    );
  if (!experiment) return <main className="page"><p>Loading experiment {id}…</p></main>;
  return (
    <Explorer
      key={experiment.id}
      initial={{
        scenario: experiment.scenario,
        saved: { id: experiment.id, title: experiment.title, resultHash: experiment.resultHash ?? experiment.result?.resultHash ?? null },
      }}
    />
  );
}
