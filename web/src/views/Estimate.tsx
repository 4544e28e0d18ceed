// The estimate planner: a workload in, the plan out as pictures (the hours of the average day or
// week by tier against demand, the month by tier, the plan against its baselines) and as text
// (unit economics, alternatives, why the plan looks as it does, assumptions, warnings, the chosen
// offers with where their prices come from). The form lives in the URL, with the
// catalog version the answer used, so a link reproduces the plan. The form's fieldsets and the
// plan's parts are in estimate/.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { useChoices } from '../catalog-data';
import { graphql, request, type ResultOf, type VariablesOf } from '../graphql';
import { PERIOD_HOURS } from '../profiles';
import { ErrorBox, Loading, useRequest } from '../ui';
import { discountInput, ESTIMATE_DEFAULTS, type EstimateForm, measuredInput, ownedInput } from '../forms';
import { fromParams, toParams } from '../url-state';
import { CandidateFields, MeasuredThroughputEditor, OwnedFields, PolicyFields, WorkloadFields } from './estimate/FormFields';
import { ProfileEditor } from './estimate/ProfileEditor';
import { Plan } from './estimate/Plan';

export { ESTIMATE_DEFAULTS, type EstimateForm };

const EstimateQuery = graphql(`
  query Estimate($input: EstimateInput!) {
    estimate(input: $input) {
      catalogVersion {
        id
        label
      }
      gpu
      precision
      gpusPerReplica
      reservedInstances
      model {
        name
      }
      monthlyCost {
        amount
        currency
      }
      periodHours
      exchangeRate {
        base
        currency
        rate
        date
        source
      }
      explanations
      savingsVsNaivePct
      savingsVsOnDemandAutoscaledPct
      tiers {
        pricingModel
        provider
        region
        cost {
          amount
        }
        gpuHours
        instanceHours
        capacityShare
      }
      baselines {
        naive {
          description
          monthlyCost {
            amount
          }
        }
        onDemandAutoscaled {
          description
          monthlyCost {
            amount
          }
        }
        unavailableReason
      }
      unitEconomics {
        averageUtilization
        costPer1MOutputTokens {
          amount
        }
        costPer1kRequests {
          amount
        }
        effectivePricePerGpuHour {
          amount
        }
      }
      alternatives {
        gpu
        precision
        gpusPerReplica
        monthlyCost {
          amount
        }
        deltaVsChosenPct
        summary
      }
      apiComparison {
        apiPricePer1MTokens {
          amount
        }
        monthlyApiCost {
          amount
        }
        tokensPerDay
        breakEvenTokensPerDay
        selfHostingCheaper
      }
      owned {
        baseGpus
        baseLoadBasis
        servers
        gpus
        monthlyCost {
          amount
          currency
        }
        depreciation {
          amount
        }
        capital {
          amount
        }
        power {
          amount
        }
        colocation {
          amount
        }
        operations {
          amount
        }
        reservedMonthlyCost {
          amount
        }
        onDemandMonthlyCost {
          amount
        }
        cheaperThanReserved
        crossoverUtilization
        serverPrice {
          amount
        }
        serverPriceSource
        electricityPerKwh {
          amount
        }
        electricitySource
        kgCo2ePerMonth
        paybackAgainst
        paybackMonths
      }
      carbon {
        optimizedFor
        kwhPerMonth
        kgCo2ePerMonth
        kgCo2ePer1MOutputTokens
        unknownReason
        otherPlan {
          optimizedFor
          gpu
          precision
          regions
          monthlyCost {
            amount
          }
          kgCo2ePerMonth
          costDifference {
            amount
          }
          kgCo2eDifference
        }
      }
      assumptions
      warnings
      chosenOffers {
        pricingModel
        provider
        region
        country
        instanceType
        gpusPerInstance
        replicasPerInstance
        pricePerInstanceHour {
          amount
        }
        priceKind
        sourceKind
        availability
        observedAt
        source
        interruptionsPerHour
        interruptionBasis
        interruptionRate
      }
      hourlyPlan {
        hour
        demandRequestsPerSecond
        replicasNeeded
        reservedInstances
        onDemandInstances
        spotInstances
        serverlessReplicaHours
        batchReplicaHours
      }
    }
  }
`);
export type EstimateResult = ResultOf<typeof EstimateQuery>['estimate'];
type Input = VariablesOf<typeof EstimateQuery>['input'];
export type Precision = NonNullable<Input['precisions']>[number];

export function estimateInput(f: EstimateForm): Input {
  const discounts = discountInput(f.discounts).value;
  const measured = measuredInput(f.measured).value as NonNullable<Input['measuredThroughput']>;
  const owned = ownedInput(f).value;
  return {
    model: f.model === 'custom' ? { parametersB: Number(f.params) } : { preset: f.model },
    ...(f.precisions.length ? { precisions: f.precisions as Precision[] } : {}),
    workload: {
      avgInputTokens: Number(f.input),
      avgOutputTokens: Number(f.output),
      batchShare: Number(f.batch),
      ...(f.profile.length === PERIOD_HOURS.week ? { weeklyProfile: f.profile } : { hourlyProfile: f.profile }),
    },
    policy: { tolerance: f.tolerance as 'INTOLERANT' | 'RECOVERABLE' | 'TOLERANT', ...(f.preset ? { preset: f.preset } : {}) },
    ...(f.gpus.length ? { gpus: f.gpus } : {}),
    currency: f.currency as 'USD' | 'EUR',
    ...(discounts.length ? { discounts } : {}),
    ...(f.apiPrice.trim() ? { apiPricePer1MTokens: f.apiPrice.trim() } : {}),
    ...(f.optimizeFor === 'CARBON' ? { optimizeFor: 'CARBON' as const } : {}),
    ...(measured.length ? { measuredThroughput: measured } : {}),
    ...(owned ? { owned } : {}),
    ...(f.version ? { version: f.version } : {}),
  };
}

/** What the form cannot send as typed (a discount without provider or percent, a rate or rent-or-buy figure that is not a number), by field. */
function localErrors(f: EstimateForm) {
  return [...discountInput(f.discounts).errors, ...measuredInput(f.measured).errors, ...ownedInput(f).errors];
}

export function EstimateView(props: { params: URLSearchParams; onParams: (p: URLSearchParams) => void }) {
  const initial = fromParams(props.params, ESTIMATE_DEFAULTS);
  const [form, setForm] = useState<EstimateForm>(initial);
  const [applied, setApplied] = useState<EstimateForm>(initial);
  const choices = useChoices();
  const input = useMemo(() => estimateInput(applied), [applied]);
  const [local, setLocal] = useState(() => localErrors(initial));
  const result = useRequest(local.length ? null : JSON.stringify(input), (signal) => request(EstimateQuery, { input }, signal));
  const set = <K extends keyof EstimateForm>(key: K, value: EstimateForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const err = (...names: string[]) => {
    const mine = local.filter((x) => names.includes(x.field)).map((x) => x.message);
    return mine.length ? mine.join('; ') : result.error?.forField(...names);
  };
  const e = result.data?.estimate;

  // The answer names its catalog version; the URL then pins it, so the link reproduces this plan.
  useEffect(() => {
    if (!e || applied.version) return;
    const pinned = { ...applied, version: e.catalogVersion.label };
    setForm((f) => ({ ...f, version: e.catalogVersion.label }));
    props.onParams(toParams(pinned, ESTIMATE_DEFAULTS));
  }, [e]);

  const submit = (ev: Event) => {
    ev.preventDefault();
    setLocal(localErrors(form));
    setApplied(form);
    props.onParams(toParams(form, ESTIMATE_DEFAULTS));
  };
  const fields = { form, set, err, choices: choices.data };

  return (
    <section aria-labelledby="estimate-title">
      <h1 id="estimate-title">Estimate planner</h1>
      <form class="form" onSubmit={submit} noValidate aria-label="Workload">
        <WorkloadFields {...fields} />
        <PolicyFields {...fields} />
        <CandidateFields {...fields} />
        <MeasuredThroughputEditor {...fields} />
        <OwnedFields {...fields} />
        <ProfileEditor form={form} set={set} setForm={setForm} error={err('workload.hourlyProfile', 'workload.weeklyProfile')} />
        <div class="actions">
          <button type="submit" disabled={result.loading}>
            Estimate
          </button>
        </div>
      </form>
      <Loading active={result.loading} what="the estimate" />
      <ErrorBox error={result.error} shownAtFields={!!result.error?.fields.length} />
      {e && <Plan e={e} />}
    </section>
  );
}
