import { useEffect, useState } from 'preact/hooks';
import { api, unwrap } from '../api/client';
import type { Experiment } from '../api/schema';
import { navigate } from '../router';

/** "Compare with": the other experiments on the same dataset, to see this one against (it is the change). */
export function CompareWith({ experiment }: { experiment: Experiment }) {
  const [others, setOthers] = useState<Experiment[]>([]);
  const [chosen, setChosen] = useState('');

  useEffect(() => {
    api
      .GET('/v1/experiments', { params: { query: { limit: 200 } } })
      .then((answer) => {
        const same = unwrap(answer).experiments.filter(
          (other) => other.id !== experiment.id && other.dataset.id === experiment.dataset.id,
        );
        setOthers(same);
        setChosen(same[0]?.id ?? '');
      })
      .catch(() => setOthers([]));
  }, [experiment.id]);

  if (!others.length) return null;
  return (
    <form
      class="inline-form"
      aria-label="Compare with another experiment"
      onSubmit={(event) => {
        event.preventDefault();
        navigate('experiments', 'compare', chosen, experiment.id);
      }}
    >
      <label for="compare-with">Compare with (before)</label>
      <select id="compare-with" value={chosen} onChange={(e) => setChosen(e.currentTarget.value)}>
        {others.map((other) => (
          <option key={other.id} value={other.id}>
            {other.target.agent ?? other.target.workflow}, {other.id}
          </option>
        ))}
      </select>
      <button type="submit" class="secondary">
        Compare
      </button>
    </form>
  );
}
